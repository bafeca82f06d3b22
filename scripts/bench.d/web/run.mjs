// The runs of `scripts/bench web`: Lighthouse (mobile defaults: simulated slow 4G, a 4x slower
// CPU, a phone's screen) on each page RUNS times, each run in a fresh Chromium (Debian's, with
// the flags the e2e suite uses), performance category only. Prints one JSON line per run:
// { page, url, run, score, lcp, tbt, cls, bytes, fcp, si }.
//
// Environment: BASE_URL; PAGES (name=path or name=URL, space-separated); RUNS (default 3); CHROME_PATH;
// LHR_DIR (optional): each run's whole Lighthouse report is written there as
// <page>-<run>.json, to read which requests and tasks fell in the measured window.
// THROTTLING (optional): `simulate` (Lighthouse's default: the page loads at full speed and the
// slow phone is computed from that load) or `devtools` (the page loads on a CPU really slowed 4x
// and a really throttled slow 4G, and the figures are what happened).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';

const base = process.env.BASE_URL;
const runs = Number(process.env.RUNS || 3);
const pages = (process.env.PAGES || '').split(/\s+/).filter(Boolean).map((p) => {
  const at = p.indexOf('=');
  return { name: p.slice(0, at), path: p.slice(at + 1) };
});
const throttlingMethod = process.env.THROTTLING || 'simulate';
if (!['simulate', 'devtools'].includes(throttlingMethod)) throw new Error(`THROTTLING: simulate or devtools, not ${throttlingMethod}`);
const FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'];

async function measure(page, run) {
  const chrome = await launch({ chromePath: process.env.CHROME_PATH || '/usr/bin/chromium', chromeFlags: FLAGS });
  try {
    // A page of the reference build (WEB_REFERENCE) is named by its whole address.
    const url = /^https?:/.test(page.path) ? page.path : `${base}${page.path}`;
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], throttlingMethod });
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (process.env.LHR_DIR) writeFileSync(join(process.env.LHR_DIR, `${page.name}-${run}.json`), JSON.stringify(lhr));
    const a = (id) => lhr.audits[id]?.numericValue ?? null;
    return {
      page: page.name,
      url,
      run,
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      lcp: a('largest-contentful-paint'),
      tbt: a('total-blocking-time'),
      cls: a('cumulative-layout-shift'),
      bytes: a('total-byte-weight'),
      fcp: a('first-contentful-paint'),
      si: a('speed-index'),
      throttling: throttlingMethod,
    };
  } finally {
    await chrome.kill();
  }
}

for (let run = 1; run <= runs; run++) {
  // Runs go round the pages, so a slow moment of the machine does not fall on one page only.
  for (const page of pages) {
    // A run Lighthouse itself could not record (NO_NAVSTART and the like, on a busy machine) is
    // made again, up to twice.
    for (let attempt = 1; ; attempt++) {
      try {
        console.log(JSON.stringify(await measure(page, run)));
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
        console.error(`run ${run} of ${page.name} again: ${error.message}`);
      }
    }
  }
}
