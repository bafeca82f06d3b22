/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import { VitePWA } from 'vite-plugin-pwa';
import { installableApp } from './scripts/installable-app.mjs';

/**
 * The built page starts the app through public/boot.js (a deferred classic script) instead of
 * naming the entry module itself: on a page the server painted, the entry is fetched after that
 * first paint (see boot.js). The manifest's link goes to boot.js too, which adds it once the page
 * has loaded: the browser fetches the manifest and an icon as soon as the link is there, and
 * those requests would otherwise share the first seconds with the page's own. The development
 * server keeps Vite's own module script and the link.
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
        const manifest = /\s*<link rel="manifest" href="([^"]+)" \/>/;
        const link = html.match(manifest);
        if (!link) throw new Error('index.html: the manifest link was not found');
        return html
          .replace(manifest, '')
          .replace(entry, `<script defer src="/boot.js" data-entry="${found[1]}" data-manifest="${link[1]}"></script>`);
      },
    },
  };
}

/**
 * Code the service worker does not precache: the writers' and administrators' tools (the editor,
 * charts, maps, the administrators' area), which most visitors never load. They are fetched when
 * used, as before (hashed, cached by the browser for a year).
 */
const NOT_PRECACHED = [
  /node_modules\/@editorjs\//,
  /src\/features\/editor\//,
  /node_modules\/recharts\//,
  /node_modules\/d3-/,
  /src\/features\/admin\/(?!admin-entry\.ts$)/,
  /locations-map/,
  /engagement-charts/,
];

/** Names the output chunks holding any module of NOT_PRECACHED (filled as the bundle is written). */
function chunksNotPrecached(found: Set<string>): Plugin {
  return {
    name: 'pressroom-chunks-not-precached',
    apply: 'build',
    generateBundle(_, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type === 'chunk' && file.moduleIds.some((id) => NOT_PRECACHED.some((re) => re.test(id)))) found.add(file.fileName);
      }
    },
  };
}
const notPrecached = new Set<string>();

/** Where `npm run dev` forwards API, realtime and media requests. */
const SERVER = process.env.PRESSROOM_DEV_SERVER ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    startAfterFirstPaint(),
    // The web app manifest, its icons and screenshots (scripts/installable-app.mjs).
    installableApp(),
    chunksNotPrecached(notPrecached),
    // The service worker, /sw.js (src/service-worker/sw.ts), with the list of files to precache.
    // The app registers it itself once the page has loaded (features/pwa); the manifest and its
    // <link> are ours (index.html, installableApp).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/service-worker',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        rollupFormat: 'iife',
        // The shell (the page, its start-up scripts, the logo, the manifest and icons) and the
        // app's code and styles; never the API viewer, the bundle report, compressed copies,
        // source maps or the install sheet's screenshots.
        globPatterns: ['index.html', '*.{js,svg,webmanifest}', 'icons/*.png', 'assets/*.{js,css}'],
        globIgnores: ['sw.js', 'api-docs/**', 'bundle-report.*', '.vite/**', '**/*.{br,gz,map}', 'screenshots/**'],
        manifestTransforms: [(entries) => ({ manifest: entries.filter((entry) => !notPrecached.has(entry.url)), warnings: [] })],
      },
    }),
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
