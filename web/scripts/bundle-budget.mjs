// The reader's JavaScript budget: for each reader route (home, post, author, tag and category
// pages), the scripts a first visit loads before the page can render — the entry chunk, the
// route's chunk, and every chunk they import statically (what the browser fetches before running
// them; dynamic imports are later) — compressed as the server sends them (Brotli, the copies of
// scripts/precompress.mjs), with gzip shown beside. Exits 1 when a route exceeds the budget or
// loads code that is not for readers (editor, charts, maps, Swagger, the administrators' area and
// its state, RTK Query and the generated endpoints, the realtime client, which loads once the page
// is idle, passkeys), so `npm run build` fails.
//
// The budget is the target, 120 KiB (docs/performance.md has the figures).
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

export const TARGET_KIB = 120;
export const BUDGET_KIB = 120;
export const READER_ROUTES = {
  '/': 'src/features/posts/pages/home-page.tsx',
  '/post/{slug}': 'src/app/routes/post-page.tsx',
  '/author-profile/{id}': 'src/app/routes/author-profile-page.tsx',
  '/tag/{tag}': 'src/features/posts/pages/tag-page.tsx',
  '/category/{slug}': 'src/features/posts/pages/category-page.tsx',
};
/** Code a reader's first load must never include (module paths, from the bundle report). */
export const NOT_FOR_READERS = [
  /node_modules\/@editorjs\//,
  /node_modules\/recharts\//,
  /node_modules\/d3-/,
  /node_modules\/swagger-ui/,
  // The administrators' area, all but the listener that loads it for an administrator.
  /src\/features\/admin\/(?!admin-entry\.ts$)/,
  // RTK Query and the generated endpoints: loaded with the screens that use them
  // (src/api/base-api.ts), never part of a reader's first load.
  /node_modules\/@reduxjs\/toolkit\/dist\/query\//,
  /src\/api\/(base-api|base-query|endpoints)\.ts$/,
  // The realtime client: imported when the socket opens, after the first paint.
  /node_modules\/(socket\.io-client|socket\.io-parser|engine\.io-client|engine\.io-parser)\//,
  /src\/features\/editor\//,
  // Passkeys (WebAuthn): loaded by the sign-in and settings pages, and by the step-up dialog when it opens.
  /node_modules\/@simplewebauthn\//,
  /src\/lib\/webauthn\.ts$/,
  /src\/features\/analytics\/components\/engagement-charts/,
  /locations-map/,
];

/** Module ids per output file, from the bundle report's raw data (dist/bundle-report.json). */
function modulesByFile(raw) {
  const byFile = new Map();
  for (const meta of Object.values(raw.nodeMetas)) {
    for (const file of Object.keys(meta.moduleParts)) {
      if (!byFile.has(file)) byFile.set(file, []);
      byFile.get(file).push(meta.id);
    }
  }
  return byFile;
}

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

function sizes(file) {
  const raw = readFileSync(join(dist, file));
  const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  return { raw: raw.length, br, gzip: gzipSync(raw, { level: 9 }).length };
}

/** The chunks `keys` load before running: themselves and their static imports, transitively. */
function closure(manifest, keys) {
  const seen = new Set();
  const stack = [...keys];
  while (stack.length) {
    const key = stack.pop();
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    stack.push(...(manifest[key].imports ?? []));
  }
  return [...seen];
}

export function report(manifest, raw) {
  const modules = modulesByFile(raw);
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entry) throw new Error('no entry chunk in the manifest');
  const rows = [];
  for (const [route, page] of Object.entries(READER_ROUTES)) {
    // The page's own chunk, or the shared chunk Rollup put the page's module in.
    const key = manifest[page]
      ? page
      : Object.keys(manifest).find((k) => (modules.get(manifest[k].file) ?? []).some((id) => id.endsWith(`/${page}`)));
    if (!key) throw new Error(`${page} (${route}) is not in a chunk of the build`);
    const chunks = closure(manifest, [entry, key]);
    const files = chunks.map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
    const total = files.map(sizes).reduce((a, s) => ({ raw: a.raw + s.raw, br: a.br + s.br, gzip: a.gzip + s.gzip }), { raw: 0, br: 0, gzip: 0 });
    const forbidden = files
      .flatMap((f) => modules.get(f) ?? [])
      .filter((id) => NOT_FOR_READERS.some((re) => re.test(id)));
    rows.push({ route, files: files.length, ...total, forbidden });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  const kib = (n) => (n / 1024).toFixed(1).padStart(7);
  console.log(`reader first-load JavaScript (budget ${BUDGET_KIB} KiB Brotli, target ${TARGET_KIB} KiB):`);
  console.log(`${'route'.padEnd(22)}${'files'.padStart(6)}${'raw KiB'.padStart(9)}${'gzip'.padStart(8)}${'brotli'.padStart(8)}`);
  let failed = false;
  const raw = JSON.parse(readFileSync(join(dist, 'bundle-report.json'), 'utf8'));
  for (const r of report(manifest, raw)) {
    const over = r.br > BUDGET_KIB * 1024;
    failed ||= over || r.forbidden.length > 0;
    const mark = over ? '  OVER BUDGET' : r.br > TARGET_KIB * 1024 ? '  above target' : '';
    console.log(`${r.route.padEnd(22)}${String(r.files).padStart(6)}${kib(r.raw)}  ${kib(r.gzip)} ${kib(r.br)}${mark}`);
    for (const f of r.forbidden) console.log(`  not for readers: ${f}`);
  }
  if (failed) {
    console.error('bundle budget exceeded (see dist/bundle-report.html)');
    process.exit(1);
  }
}
