// What makes the app installable besides its service worker: the web app manifest
// (/manifest.webmanifest) and its images, drawn from public/logo.svg at build time with resvg
// (@resvg/resvg-js): the icons (192 and 512 px, a maskable 512 px whose mark stays inside the
// safe zone, and the 180 px touch icon for iOS) and the install sheet's two screenshots (narrow
// and wide), which show the reading screen as shapes in the app's colours.
//
//   installableApp()   the Vite plugin (vite.config.ts): emits the manifest and the images into
//                      dist/ with the build, so they never drift from the logo
//   node scripts/installable-app.mjs [dir]   writes them to dir (default dist-images/) to look at
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The light theme's colours (src/styles/global.css): the top bar (surface), the page, the brand. */
export const COLORS = { surface: '#ffffff', page: '#f7f7f9', brand: '#1f4fd1', border: '#dfe1e8', muted: '#c9ccd6', text: '#17181c' };

export const WEB_MANIFEST = {
  id: '/',
  name: 'Pressroom',
  short_name: 'Pressroom',
  description: 'Read, write and follow writers on Pressroom, a multi-author publishing platform.',
  lang: 'en',
  dir: 'ltr',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  orientation: 'any',
  theme_color: COLORS.surface,
  background_color: COLORS.page,
  categories: ['news', 'books', 'social'],
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
  screenshots: [
    { src: '/screenshots/reading-narrow.png', sizes: '780x1688', type: 'image/png', form_factor: 'narrow', label: 'The home feed on a phone' },
    { src: '/screenshots/reading-wide.png', sizes: '1600x1000', type: 'image/png', form_factor: 'wide', label: 'The home feed on a computer' },
  ],
};

/** The logo's mark (the white "P" of public/logo.svg) and its bounding box in the 64-unit square. */
function logoParts() {
  const svg = readFileSync(join(web, 'public', 'logo.svg'), 'utf8');
  const inner = svg.replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
  // Everything after the background square: the mark.
  const mark = inner.replace(/^<rect width="64" height="64"[^>]*\/>/, '');
  if (mark === inner) throw new Error('public/logo.svg: expected a 64×64 background <rect> first');
  return { inner, mark, center: { x: 34, y: 32 } };
}

function svgDocument(width, height, body, viewBox = `0 0 ${width} ${height}`) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${viewBox}">${body}</svg>`;
}

/** The logo as it is (rounded square), for `purpose: any`. */
function iconSvg() {
  return svgDocument(64, 64, logoParts().inner);
}

/**
 * Full-bleed brand colour with the mark scaled into the maskable safe zone (the centred circle
 * of 80 % of the width): launchers cut any shape out of it and the mark stays whole.
 */
function fullBleedSvg(scale) {
  const { mark, center } = logoParts();
  return svgDocument(64, 64, `<rect width="64" height="64" fill="${COLORS.brand}"/><g transform="translate(32 32) scale(${scale}) translate(${-center.x} ${-center.y})">${mark}</g>`);
}

/** Rounded bars standing for lines of text. */
function lines(x, y, widths, { height = 14, gap = 14, fill = COLORS.muted } = {}) {
  return widths.map((w, i) => `<rect x="${x}" y="${y + i * (height + gap)}" width="${w}" height="${height}" rx="${height / 2}" fill="${fill}"/>`).join('');
}

/** A post card: picture, title, two lines of excerpt, the author's avatar and name. */
function card(x, y, w, h) {
  const pic = Math.round(h * 0.5);
  return [
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="20" fill="${COLORS.surface}" stroke="${COLORS.border}" stroke-width="2"/>`,
    `<clipPath id="c${x}-${y}"><rect x="${x}" y="${y}" width="${w}" height="${h}" rx="20"/></clipPath>`,
    `<rect x="${x}" y="${y}" width="${w}" height="${pic}" fill="url(#picture)" clip-path="url(#c${x}-${y})"/>`,
    lines(x + 28, y + pic + 30, [w * 0.7, w * 0.45], { height: 22, gap: 14, fill: COLORS.text }),
    lines(x + 28, y + pic + 118, [w * 0.82, w * 0.6], { height: 12, gap: 12 }),
    `<circle cx="${x + 44}" cy="${y + h - 40}" r="16" fill="${COLORS.brand}" opacity="0.8"/>`,
    lines(x + 72, y + h - 46, [w * 0.3], { height: 12 }),
  ].join('');
}

/** The reading screen in the app's colours: the top bar with the logo, then cards. */
function screenshotSvg(width, height, columns) {
  const { inner } = logoParts();
  const bar = 120;
  const pad = 40;
  const gap = 32;
  const cardW = (width - pad * 2 - gap * (columns - 1)) / columns;
  const cardH = 560;
  const cards = [];
  for (let row = 0; bar + pad + row * (cardH + gap) < height; row += 1) {
    for (let col = 0; col < columns; col += 1) cards.push(card(pad + col * (cardW + gap), bar + pad + row * (cardH + gap), cardW, cardH));
  }
  return svgDocument(
    width,
    height,
    [
      `<defs><linearGradient id="picture" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#dbe6ff"/><stop offset="1" stop-color="#8fa9f0"/></linearGradient></defs>`,
      `<rect width="${width}" height="${height}" fill="${COLORS.page}"/>`,
      cards.join(''),
      `<rect width="${width}" height="${bar}" fill="${COLORS.surface}"/><rect y="${bar - 2}" width="${width}" height="2" fill="${COLORS.border}"/>`,
      `<g transform="translate(${pad} 28)"><svg width="64" height="64" viewBox="0 0 64 64">${inner}</svg></g>`,
      lines(pad + 88, 50, [columns > 1 ? 220 : 200], { height: 24, fill: COLORS.text }),
      `<circle cx="${width - pad - 32}" cy="60" r="28" fill="${COLORS.brand}" opacity="0.85"/>`,
    ].join(''),
  );
}

function png(svg, width) {
  return new Resvg(svg, { fitTo: { mode: 'width', value: width }, font: { loadSystemFonts: false } }).render().asPng();
}

/** Every file the installable app needs beside the service worker, as `{ fileName, source }`. */
export function installableAppFiles() {
  return [
    { fileName: 'manifest.webmanifest', source: `${JSON.stringify(WEB_MANIFEST, null, 2)}\n` },
    { fileName: 'icons/icon-192.png', source: png(iconSvg(), 192) },
    { fileName: 'icons/icon-512.png', source: png(iconSvg(), 512) },
    { fileName: 'icons/icon-maskable-512.png', source: png(fullBleedSvg(0.8), 512) },
    { fileName: 'icons/apple-touch-icon.png', source: png(fullBleedSvg(0.85), 180) },
    { fileName: 'screenshots/reading-narrow.png', source: png(screenshotSvg(780, 1688, 1), 780) },
    { fileName: 'screenshots/reading-wide.png', source: png(screenshotSvg(1600, 1000, 3), 1600) },
  ];
}

/** The Vite plugin: the files above become part of the build's output (and so of its precache). */
export function installableApp() {
  return {
    name: 'pressroom-installable-app',
    apply: 'build',
    generateBundle() {
      for (const file of installableAppFiles()) this.emitFile({ type: 'asset', ...file });
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2] ?? join(web, 'dist-images');
  for (const { fileName, source } of installableAppFiles()) {
    mkdirSync(dirname(join(out, fileName)), { recursive: true });
    writeFileSync(join(out, fileName), source);
  }
  console.log(`wrote the manifest, icons and screenshots to ${out}`);
}
