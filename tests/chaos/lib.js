// Shared by the chaos tests: start and kill FerretDB and the server binary, HTTP with timing, the
// figures file. Every process is started here (never reused from the outer run) so it can be killed.
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, readdirSync, appendFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const LONG = process.env.CHAOS_LONG === '1';
const TMP = process.env.CHAOS_TMP || path.join(os.tmpdir(), `pressroom-chaos-${process.pid}`);
mkdirSync(TMP, { recursive: true });

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the chaos suite through scripts/test`);
  return v;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function freePort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/** Resolves once something accepts connections on the port (rejects after `ms`). */
export async function waitForPort(port, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port} after ${ms} ms`);
    await sleep(50);
  }
}

/**
 * A FerretDB on its own port and data directory that can be killed and started again; `bin` is
 * the binary (the patched one the scripts run unless told otherwise).
 */
export class Ferret {
  constructor(name, { bin } = {}) {
    this.dir = path.join(TMP, name);
    this.bin = bin ?? need('FERRETDB_BIN');
    mkdirSync(this.dir, { recursive: true });
  }
  /** Starts the process without waiting for it to listen. */
  async launch() {
    this.port ??= await freePort();
    this.logPath = path.join(this.dir, 'ferretdb.log');
    const log = openSync(this.logPath, 'a');
    this.proc = spawn(this.bin, [
      '--handler=sqlite', `--sqlite-url=file:${this.dir}/`, `--listen-addr=127.0.0.1:${this.port}`,
      `--state-dir=${this.dir}`, '--telemetry=disable', '--debug-addr=127.0.0.1:0', '--log-level=warn',
    ], { stdio: ['ignore', log, log] });
    return this;
  }
  async start() {
    await this.launch();
    await waitForPort(this.port);
    return this;
  }
  get uri() { return `mongodb://127.0.0.1:${this.port}/`; }
  async kill() {
    const p = this.proc;
    if (p.exitCode !== null || p.signalCode !== null) return;
    p.kill('SIGKILL');
    await once(p, 'exit');
  }
}

/** The server binary with the test settings plus `env`; can be killed and started again. */
export class Server {
  constructor(name, { ferret, env = {} }) {
    this.name = name;
    this.ferret = ferret;
    this.env = env;
    this.db = `chaos_${name}_${Date.now().toString(36)}`;
    this.logPath = path.join(TMP, `${name}.log`);
  }
  async start() {
    this.port ??= await freePort();
    const log = openSync(this.logPath, 'a');
    this.proc = spawn(need('PRESSROOM_BIN'), ['serve'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        PRESSROOM_ENV: 'test',
        PRESSROOM__SERVER__PORT: String(this.port),
        PRESSROOM__DATABASE__NAME: this.db,
        PRESSROOM__SERVER__MEDIA_DIR: path.join(TMP, `${this.name}-media`),
        PRESSROOM__MAIL__TRANSPORT: 'file',
        PRESSROOM__MAIL__OUTBOX_DIR: path.join(TMP, `${this.name}-outbox`),
        PRESSROOM__GEOJSON__DIRECTORY: path.join(REPO_ROOT, 'data/geojson'),
        PRESSROOM__DAILY_MAIL__ENABLED: 'false',
        MONGODB_URI: this.ferret.uri,
        REDIS_URL: need('PRESSROOM_TEST_REDIS_URL'),
        ...this.env,
      },
    });
    const exited = once(this.proc, 'exit').then(() => {
      throw new Error(`the server exited at start; see ${this.logPath}`);
    });
    exited.catch(() => {});
    await Promise.race([waitForPort(this.port), exited]);
    return this;
  }
  get url() { return `http://127.0.0.1:${this.port}`; }
  get pid() { return this.proc.pid; }
  async kill(signal = 'SIGKILL') {
    const p = this.proc;
    if (p.exitCode !== null || p.signalCode !== null) return;
    p.kill(signal);
    await once(p, 'exit');
  }
  /** Resident memory of the server process, in KiB. */
  rssKb() {
    return this.memoryKb().rss;
  }
  /** Resident memory of the server process in KiB: all of it, and the anonymous part (the heap). */
  memoryKb() {
    const status = readFileSync(`/proc/${this.proc.pid}/status`, 'utf8');
    const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)[1]);
    return { rss: field('VmRSS'), anon: field('RssAnon') };
  }
  /** Open file descriptors of the server process. */
  openFiles() {
    return readdirSync(`/proc/${this.proc.pid}/fd`).length;
  }
}

/**
 * One HTTP request with its duration. Never throws: a connection error or a timeout is a result
 * with `status: 0`. `limitMs` aborts requests that take longer (recorded as `timedOut`).
 */
export async function request(base, method, pathname, { token, body, headers = {}, limitMs = 30_000 } = {}) {
  const started = performance.now();
  const h = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  if (body !== undefined) h['content-type'] = 'application/json';
  try {
    const res = await fetch(base + pathname, {
      method, headers: h, body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(limitMs),
    });
    const text = await res.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* not JSON */ }
    return { status: res.status, json, text, headers: res.headers, ms: performance.now() - started };
  } catch (error) {
    const timedOut = error.name === 'TimeoutError';
    return { status: 0, error: String(error.cause?.code || error.message), timedOut, ms: performance.now() - started };
  }
}

let counter = 0;
export function uniqueEmail(tag) {
  counter += 1;
  return `chaos-${tag}-${Date.now().toString(36)}-${process.pid}-${counter}@example.com`;
}

export const PASSWORD = 'correct horse battery';

/** Signs up a user (retrying while the server is still starting); returns {id, email, token}. */
export async function signup(base, tag = 'user') {
  const email = uniqueEmail(tag);
  for (let i = 0; i < 20; i += 1) {
    const res = await request(base, 'POST', '/api/auth/signup', {
      body: { fullName: `Chaos ${tag}`, email, password: PASSWORD, sendEmail: false },
    });
    if (res.status === 201) return { id: res.json._id, email, token: res.json.token };
    await sleep(250);
  }
  throw new Error(`signup of ${email} failed`);
}

/** Polls `/health` until 200; returns the milliseconds it took (Infinity past `ms`). */
export async function healthyWithin(base, ms) {
  const started = performance.now();
  while (performance.now() - started < ms) {
    const res = await request(base, 'GET', '/health', { limitMs: 2_000 });
    if (res.status === 200) return performance.now() - started;
    await sleep(100);
  }
  return Infinity;
}

/** Appends one measured figure to the figures file that docs/reliability.md is written from. */
export function figure(name, value) {
  const line = `${name}: ${typeof value === 'number' ? Math.round(value * 10) / 10 : value}`;
  console.log(`FIGURE ${line}`);
  if (process.env.CHAOS_FIGURES) appendFileSync(process.env.CHAOS_FIGURES, `${line}\n`);
}
