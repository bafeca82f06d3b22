/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';

/** Where `npm run dev` forwards API, realtime and media requests. */
const SERVER = process.env.PRESSROOM_DEV_SERVER ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
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
