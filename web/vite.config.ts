/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';

/**
 * The built page starts the app through public/boot.js (a deferred classic script) instead of
 * naming the entry module itself: on a page the server painted, the entry is fetched after that
 * first paint (see boot.js). The development server keeps Vite's own module script.
 */
function startAfterFirstPaint(): Plugin {
  return {
    name: 'pressroom-start-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
        const found = html.match(entry);
        if (!found) throw new Error('index.html: the entry module script was not found');
        return html.replace(entry, `<script defer src="/boot.js" data-entry="${found[1]}"></script>`);
      },
    },
  };
}

/** Where `npm run dev` forwards API, realtime and media requests. */
const SERVER = process.env.PRESSROOM_DEV_SERVER ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    startAfterFirstPaint(),
    // The bundle report: dist/bundle-report.html (every module's size, raw, gzip and Brotli).
    visualizer({ filename: 'dist/bundle-report.html', template: 'treemap', gzipSize: true, brotliSize: true }),
    visualizer({ filename: 'dist/bundle-report.json', template: 'raw-data', gzipSize: true, brotliSize: true }),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      '/api': { target: SERVER, changeOrigin: true },
      '/socket.io': { target: SERVER, changeOrigin: true, ws: true },
      '/media': { target: SERVER, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // dist/.vite/manifest.json: which chunks each page loads (read by scripts/bundle-budget.mjs).
    manifest: true,
  },
  test: {
    globals: true,
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    restoreMocks: true,
  },
});
