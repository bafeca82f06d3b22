// Shared helpers for the browser end-to-end tests: Debian's Chromium through playwright-core,
// the running server's URL, the test SMTP sink's Maildir, screenshots.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const SCREENSHOTS = path.join(HERE, 'screenshots');

export const BASE_URL = (process.env.PRESSROOM_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');
export const MAILDIR = process.env.PRESSROOM_MAILDIR || process.env.PRESSROOM_TEST_MAILDIR || '';
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function launch() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/**
 * Content-Security-Policy violations seen by any page of this file. The server sends a strict
 * policy (scripts only from the site); the web app must run under it, so a file whose pages broke
 * the policy fails even when its own assertions passed.
 */
export const cspViolations = [];
process.on('exit', () => {
  if (cspViolations.length > 0) {
    console.error(`Content-Security-Policy violations:\n${cspViolations.join('\n')}`);
    process.exitCode = 1;
  }
});

/**
 * A fresh browser profile (its own local storage and cookies). Console errors are collected so a
 * test can show them when it fails (Content-Security-Policy violations also in `cspViolations`);
 * geolocation is left undecided, as for a new visitor. `baseURL`: another server than the suite's.
 */
export async function newPage(browser, { viewport = { width: 1280, height: 860 }, baseURL = BASE_URL } = {}) {
  const context = await browser.newContext({ baseURL, viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const log = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') log.push(msg.text());
    if (/Content Security Policy/i.test(msg.text())) cspViolations.push(`${page.url()}: ${msg.text()}`);
  });
  page.on('pageerror', (error) => log.push(String(error)));
  page.consoleErrors = log;
  return page;
}

/** Waits until the splash is gone and the shell's top bar is visible. */
export async function waitForShell(page) {
  await page.getByRole('banner').waitFor();
  await page.getByTestId('splash').waitFor({ state: 'detached' }).catch(() => {});
}

export async function screenshot(page, name) {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

let counter = 0;
export function uniqueEmail(tag = 'user') {
  counter += 1;
  return `e2e-${tag}-${Date.now().toString(36)}-${process.pid}-${counter}@example.com`;
}

// ── Mail ────────────────────────────────────────────────────────────────────────────────────

function decodeQuotedPrintable(text) {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

function splitHeaders(raw) {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body };
}

/** The readable text of a message (every text part, transfer-decoded, HTML tags dropped). */
export function messageText(raw) {
  const { headers, body } = splitHeaders(raw);
  const type = headers['content-type'] || 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .map((part) => messageText(part.replace(/^\r?\n/, '')))
      .join('\n');
  }
  if (!/^text\//i.test(type)) return '';
  const encoding = (headers['content-transfer-encoding'] || '').toLowerCase();
  let text = body;
  if (encoding === 'base64') text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  else if (encoding === 'quoted-printable') text = decodeQuotedPrintable(body);
  if (/text\/html/i.test(type)) {
    text = text.replace(/<style[\s\S]*?<\/style>/gi, ' ').replace(/<[^>]+>/g, ' ').replace(/&nbsp;/g, ' ');
  }
  return text;
}

/** Every message in the Maildir addressed to `address`, oldest first. */
export async function messagesTo(address) {
  if (!MAILDIR) throw new Error('PRESSROOM_MAILDIR (or PRESSROOM_TEST_MAILDIR) must name the SMTP sink Maildir');
  const found = [];
  for (const sub of ['new', 'cur']) {
    const dir = path.join(MAILDIR, sub);
    if (!existsSync(dir)) continue;
    for (const name of await readdir(dir)) {
      const file = path.join(dir, name);
      const raw = await readFile(file, 'utf8');
      const { headers } = splitHeaders(raw);
      const to = `${headers.to || ''} ${headers['x-rcptto'] || ''} ${headers['delivered-to'] || ''}`.toLowerCase();
      if (!to.includes(address.toLowerCase())) continue;
      found.push({ file, raw, mtime: (await stat(file)).mtimeMs, subject: headers.subject || '' });
    }
  }
  return found.sort((a, b) => a.mtime - b.mtime || a.file.localeCompare(b.file));
}

/** The 6-digit code of the newest message to `address` (waits for one beyond `after` messages). */
export async function waitForCode(address, { after = 0, timeoutMs = 20_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = await messagesTo(address);
    if (messages.length > after) {
      const text = messageText(messages[messages.length - 1].raw).replace(/#[0-9a-f]{6}\b/gi, ' ');
      const code = /\b(\d{6})\b/.exec(text)?.[1];
      if (code) return code;
    }
    if (Date.now() > deadline) throw new Error(`no 6-digit code mailed to ${address} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// ── API shortcuts (for arranging state, never for what a test asserts about the UI) ────────

export async function api(pathname, { method = 'GET', body, token, base = BASE_URL } = {}) {
  const response = await fetch(`${base}/api${pathname}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  return { status: response.status, data };
}

/**
 * Signs up through the API and returns the session (for tests about other things than signup);
 * `base`: another server than the suite's.
 */
export async function createAccount(tag = 'user', password = 'correct horse battery', { base = BASE_URL } = {}) {
  const email = uniqueEmail(tag);
  const fullName = `E2E ${tag} ${counter}`;
  const { status, data } = await api('/auth/signup', { method: 'POST', base, body: { fullName, email, password, sendEmail: false } });
  if (status >= 300) throw new Error(`signup failed: ${status} ${JSON.stringify(data)}`);
  return { email, password, fullName, token: data.token, id: data._id };
}

/** Logs in through the form on /login (the browser keeps the session in localStorage.jwt). */
export async function logInThroughForm(page, { email, password }) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

// ── Administrators ──────────────────────────────────────────────────────────────────────────

/**
 * Makes an account an administrator with the server's own CLI (`pressroom admin grant`), the
 * only way one comes to exist. Needs PRESSROOM_BIN, and the database the server under test uses:
 * PRESSROOM_TEST_MONGODB_URI (or MONGODB_URI) and PRESSROOM_SUITE_DB.
 */
export async function grantAdmin(email) {
  const { execFile } = await import('node:child_process');
  const bin = process.env.PRESSROOM_BIN;
  const uri = process.env.PRESSROOM_TEST_MONGODB_URI || process.env.MONGODB_URI;
  const db = process.env.PRESSROOM_SUITE_DB;
  if (!bin || !uri || !db) {
    throw new Error('granting an administrator needs PRESSROOM_BIN, PRESSROOM_TEST_MONGODB_URI and PRESSROOM_SUITE_DB');
  }
  await new Promise((resolve, reject) => {
    execFile(
      bin,
      ['admin', 'grant', email],
      {
        // The CLI reads config/ from the repository root, like the server.
        cwd: process.env.PRESSROOM_ROOT || path.resolve(HERE, '..', '..'),
        env: { ...process.env, PRESSROOM_ENV: 'test', MONGODB_URI: uri, PRESSROOM__DATABASE__NAME: db },
      },
      (error, stdout, stderr) => (error ? reject(new Error(`admin grant failed: ${stderr || error.message}`)) : resolve(stdout)),
    );
  });
}

/** A signed-in administrator's session (token from a fresh login after the grant). */
export async function createAdmin() {
  const account = await createAccount('admin');
  await grantAdmin(account.email);
  const { status, data } = await api('/auth/login', { method: 'POST', body: { email: account.email, password: account.password } });
  if (status >= 300 || data.role !== 'admin') throw new Error(`admin login failed: ${status} ${JSON.stringify(data)}`);
  return { ...account, token: data.token };
}

// ── Images and accessibility ────────────────────────────────────────────────────────────────

import { deflateSync } from 'node:zlib';
import { createRequire } from 'node:module';

function crc32(buf) {
  let crc = 0xffffffff;
  for (const byte of buf) {
    let c = (crc ^ byte) & 0xff;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crc = (crc >>> 8) ^ c;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG of `width`×`height` with a horizontal gradient between two RGB colours. */
export function gradientPng(width, height, from, to) {
  const rows = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) {
      const t = x / width;
      for (let c = 0; c < 3; c += 1) row[1 + x * 3 + c] = Math.round(from[c] + (to[c] - from[c]) * t);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * Runs axe-core in the page and returns its serious and critical violations (WCAG 2.1 A/AA
 * rules and best practices; with `targetSize`, WCAG 2.2's target size too), each as
 * "rule: target (help)".
 */
export async function seriousAccessibilityViolations(page, { exclude = [], targetSize = false } = {}) {
  // Evaluated through the DevTools protocol rather than added as an inline <script>: the page's
  // Content-Security-Policy (rightly) refuses inline scripts.
  const alreadyLoaded = await page.evaluate(() => Boolean(window.axe));
  if (!alreadyLoaded) await page.evaluate(await readFile(AXE_SOURCE, 'utf8'));
  const violations = await page.evaluate(
    async ({ excluded, targetSize: withTargetSize }) => {
      // `targetSize`: also WCAG 2.2's 24 x 24 px touch targets (axe ships that rule switched off).
      const options = { resultTypes: ['violations'], ...(withTargetSize ? { rules: { 'target-size': { enabled: true } } } : {}) };
      const result = await window.axe.run({ exclude: excluded.map((s) => [s]) }, options);
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
    },
    { excluded: exclude, targetSize },
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.targets.slice(0, 3).join(', ')} — ${v.help}`);
}

/** Fails with the list when axe-core finds serious or critical violations on the page. */
export async function assertAccessible(page, name) {
  const violations = await seriousAccessibilityViolations(page);
  assert.deepEqual(violations, [], `${name}: ${violations.join('\n')}`);
}

/**
 * A signed-in page in a browser profile of its own (cookie choice made, so the bar stays out of
 * the way), socket connected. `forwardedFor` sends X-Forwarded-For on every request (the test
 * server trusts 127.0.0.1 as a proxy).
 */
export async function signedInPage(browser, account, { forwardedFor } = {}) {
  const page = await newPage(browser);
  if (forwardedFor) await page.context().setExtraHTTPHeaders({ 'X-Forwarded-For': forwardedFor });
  await page.addInitScript(() => localStorage.setItem('userCookieConsent', 'true'));
  await page.goto('/login');
  await logInThroughForm(page, account);
  await page.waitForURL((url) => url.pathname === '/');
  await waitForShell(page);
  await page.locator('[data-testid="online-indicator"][data-socket-status="connected"]').waitFor();
  return page;
}

// ── A server of the file's own ──────────────────────────────────────────────────────────────

// The repository root (config/, web/dist), as for grantAdmin.
const ROOT = process.env.PRESSROOM_ROOT || path.resolve(HERE, '..', '..');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * A server of a test file's own (`PRESSROOM_BIN`), over the database `dbName` with the suite's
 * settings (the test Redis and SMTP sink when set, else mail to files), its public address on
 * `http://localhost:PORT`; `env` adds or overrides settings. `stop()` ends it and removes its
 * directory (kept with E2E_KEEP). Used by files that need a setting the suite's server does not
 * have (passkeys: a host name, not an IP address; webhooks: loopback endpoints, fast retries).
 * `port`: the port of an earlier server of the file, to start it again at the same address (the
 * browser's site, its service worker and cookies, stay the same).
 */
export async function startOwnServer({ name, dbName, env = {}, port: wantedPort }) {
  const bin = process.env.PRESSROOM_BIN;
  const DB_URI = process.env.PRESSROOM_TEST_MONGODB_URI || process.env.MONGODB_URI;
  if (!bin || !DB_URI) throw new Error(`${name}: starting a server of its own needs PRESSROOM_BIN and PRESSROOM_TEST_MONGODB_URI`);
  const port = wantedPort ?? (await freePort());
  const dir = mkdtempSync(path.join(os.tmpdir(), `pressroom-${name}-`));
  const smtpPort = process.env.PRESSROOM_TEST_SMTP_PORT;
  const mail = smtpPort
    ? { PRESSROOM__MAIL__TRANSPORT: 'smtp', PRESSROOM__MAIL__SMTP_PORT: smtpPort }
    : { PRESSROOM__MAIL__TRANSPORT: 'file', PRESSROOM__MAIL__OUTBOX_DIR: path.join(dir, 'outbox') };
  const log = openSync(path.join(dir, 'server.log'), 'a');
  const child = spawn(bin, ['serve'], {
    // The server reads config/ and serves web/dist from the repository root.
    cwd: ROOT,
    env: {
      ...process.env,
      PRESSROOM_ENV: 'test',
      PRESSROOM__SERVER__PORT: String(port),
      PRESSROOM__SERVER__PUBLIC_URL: `http://localhost:${port}`,
      PRESSROOM__DATABASE__NAME: dbName,
      PRESSROOM__SERVER__MEDIA_DIR: path.join(dir, 'media'),
      PRESSROOM__ACCOUNTS__EXPORT_DIR: path.join(dir, 'exports'),
      PRESSROOM__IMPORT__DIR: path.join(dir, 'imports'),
      PRESSROOM__SERVER__TRUSTED_PROXIES: '127.0.0.1',
      PRESSROOM__GEOJSON__DIRECTORY: path.join(ROOT, 'data', 'geojson'),
      PRESSROOM__RATE_LIMIT__LOGIN_PER_ADDRESS: '100000',
      PRESSROOM__RATE_LIMIT__OTP_SEND_PER_ADDRESS: '100000',
      PRESSROOM__RATE_LIMIT__OTP_CHECK_PER_ADDRESS: '100000',
      PRESSROOM__RATE_LIMIT__CONTACT_PER_ADDRESS: '100000',
      PRESSROOM__RATE_LIMIT__ENGAGEMENT_PER_READER: '100000',
      PRESSROOM__RATE_LIMIT__ENGAGEMENT_PER_ADDRESS: '100000',
      MONGODB_URI: DB_URI,
      REDIS_URL: process.env.PRESSROOM_TEST_REDIS_URL || process.env.REDIS_URL || '',
      ...mail,
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${readFileSync(path.join(dir, 'server.log'), 'utf8').slice(-2000)}`);
    const up = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error('the server did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    port,
    log: path.join(dir, 'server.log'),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      if (!process.env.E2E_KEEP) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A browser profile on disk of its own (service workers and their caches live there, as in an
 * installed browser), removed when closed. Console errors are kept in `log` for failure
 * messages, and Content-Security-Policy violations fail the file (`cspViolations`).
 */
export async function persistentProfile({ baseURL, viewport = { width: 1280, height: 860 }, name = 'profile' }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `pressroom-${name}-`));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    baseURL,
    viewport,
  });
  context.setDefaultTimeout(15_000);
  const log = [];
  const watch = (page) => {
    page.on('console', (msg) => {
      if (msg.type() === 'error') log.push(msg.text());
      if (/Content Security Policy/i.test(msg.text())) cspViolations.push(`${page.url()}: ${msg.text()}`);
    });
    page.on('pageerror', (error) => log.push(String(error)));
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  let closed = false;
  return {
    context,
    log,
    async page() {
      return context.pages()[0] ?? context.newPage();
    },
    async close() {
      if (closed) return;
      closed = true;
      await context.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
