// A cluster for the two-node suites: a Redis of its own (so a test can stop and restart it) and
// server processes over the same database (FerretDB started by scripts/test) and that Redis,
// each on its own port. Clients talk to each node directly, as a load balancer would send them.
import { spawn, execFileSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, openSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { io } from "socket.io-client";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const START_TIMEOUT_MS = 60_000;
export const EVENT_TIMEOUT_MS = 5_000;
export const PASSWORD = "correct horse battery";

export function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suites through scripts/test`);
  return value;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitUntil(what, check, ms = START_TIMEOUT_MS) {
  const until = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > until) throw new Error(`${what} within ${ms} ms`);
    await sleep(100);
  }
}

export function portOpen(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** A Redis server of the cluster's own, which a test may stop and start again. */
class RedisServer {
  constructor(dir, port) {
    this.dir = dir;
    this.port = port;
    this.url = `redis://127.0.0.1:${port}/`;
  }

  async start() {
    const bin = process.env.REDIS_BIN || "redis-server";
    this.child = spawn(
      bin,
      ["--bind", "127.0.0.1", "--port", String(this.port), "--dir", this.dir, "--save", "", "--appendonly", "no"],
      { stdio: "ignore" },
    );
    await waitUntil("Redis did not start", () => portOpen(this.port));
  }

  async stop() {
    if (!this.child || this.child.exitCode !== null) return;
    const exited = once(this.child, "exit");
    this.child.kill("SIGKILL");
    await exited;
  }
}

/** One server process of the cluster. */
class Node {
  constructor(cluster, name, port) {
    this.cluster = cluster;
    this.name = name;
    this.port = port;
    this.url = `http://127.0.0.1:${port}`;
  }

  async start() {
    const { cluster } = this;
    const log = openSync(path.join(cluster.dir, `${this.name}.log`), "a");
    this.child = spawn(required("PRESSROOM_BIN"), ["serve"], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PRESSROOM_ENV: "test",
        MONGODB_URI: required("PRESSROOM_TEST_MONGODB_URI"),
        REDIS_URL: cluster.redis.url,
        PRESSROOM__DATABASE__NAME: cluster.db,
        PRESSROOM__SERVER__PORT: String(this.port),
        PRESSROOM__SERVER__MEDIA_DIR: path.join(cluster.dir, "media"),
        PRESSROOM__MAIL__OUTBOX_DIR: path.join(cluster.dir, "outbox"),
        PRESSROOM__CLUSTER__NODE_ID: this.name,
        PRESSROOM__CLUSTER__HEARTBEAT_TTL_MS: String(cluster.ttlMs),
        PRESSROOM__CLUSTER__SID_PREFIX: `${this.name}-`,
        ...cluster.env,
      },
      stdio: ["ignore", log, log],
    });
    await waitUntil(`node ${this.name} did not start`, async () => {
      if (this.child.exitCode !== null) throw new Error(`node ${this.name} exited`);
      return (await fetch(`${this.url}/health`)).ok;
    });
  }

  /** Stops the process with `signal` (SIGKILL: as a crash, nothing cleaned up). */
  async stop(signal = "SIGTERM") {
    if (!this.child || this.child.exitCode !== null) return;
    const exited = once(this.child, "exit");
    this.child.kill(signal);
    await exited;
  }

  async api(method, route, body, token) {
    const headers = { "content-type": "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${this.url}/api${route}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = { raw: text };
    }
    return { status: res.status, body: json, headers: res.headers };
  }

  /** Signs up a fresh user through this node; returns { id, email, token, name }. */
  async signup(name = "Reader") {
    const email = `cl-${randomUUID()}@example.com`;
    const res = await this.api("POST", "/auth/signup", { fullName: name, email, password: PASSWORD, sendEmail: false });
    if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body._id, email, token: res.body.token, name };
  }

  /** Opens a socket.io-client socket to this node; resolves once connected. */
  connect({ token, transports = ["websocket"] } = {}) {
    const socket = io(this.url, {
      path: "/socket.io/",
      transports,
      auth: token ? { token } : {},
      reconnection: false,
      forceNew: true,
      autoConnect: false,
    });
    socket.received = [];
    socket.onAny((event, ...args) => socket.received.push({ event, args }));
    socket.connect();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("socket did not connect")), EVENT_TIMEOUT_MS);
      socket.once("connect", () => {
        clearTimeout(timer);
        resolve(socket);
      });
      socket.once("connect_error", (err) => {
        clearTimeout(timer);
        socket.close();
        reject(err);
      });
    });
  }
}

/**
 * Starts Redis and `nodes` server processes named a, b, ... over a fresh database.
 * `ttlMs` is the nodes' heartbeat TTL; `env` adds settings.
 */
export async function startCluster({ nodes = 2, ttlMs = 3_000, env = {} } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pressroom-cluster-"));
  const cluster = {
    dir,
    db: `cluster_${Date.now()}_${randomUUID().slice(0, 8)}`,
    ttlMs,
    env,
    redis: new RedisServer(dir, await freePort()),
    nodes: [],
  };
  await cluster.redis.start();
  for (let i = 0; i < nodes; i++) {
    cluster.nodes.push(new Node(cluster, String.fromCharCode(97 + i), await freePort()));
  }
  await Promise.all(cluster.nodes.map((n) => n.start()));
  cluster.stop = async () => {
    await Promise.all(cluster.nodes.map((n) => n.stop()));
    await cluster.redis.stop();
    if (!process.env.KEEP_CLUSTER_LOGS) rmSync(dir, { recursive: true, force: true });
  };
  return cluster;
}

/** Makes an account an administrator the way an operator does (the CLI), in `cluster`'s database. */
export function grantAdmin(cluster, email) {
  execFileSync(required("PRESSROOM_BIN"), ["admin", "grant", email], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PRESSROOM_ENV: "test",
      MONGODB_URI: required("PRESSROOM_TEST_MONGODB_URI"),
      PRESSROOM__DATABASE__NAME: cluster.db,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * Resolves with the args of the first `event` whose args satisfy `match`: one already received
 * (it is consumed) or the next to arrive.
 */
export function waitFor(socket, event, match = () => true, timeout = EVENT_TIMEOUT_MS) {
  const index = socket.received.findIndex((e) => e.event === event && match(...e.args));
  if (index >= 0) {
    const [found] = socket.received.splice(index, 1);
    return Promise.resolve(found.args);
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, handler);
      reject(new Error(`no ${event} event matched within ${timeout} ms`));
    }, timeout);
    function handler(...args) {
      if (match(...args)) {
        clearTimeout(timer);
        socket.off(event, handler);
        const wire = JSON.stringify(args);
        const found = socket.received.findLastIndex((e) => e.event === event && JSON.stringify(e.args) === wire);
        if (found >= 0) socket.received.splice(found, 1);
        resolve(args);
      }
    }
    socket.on(event, handler);
  });
}

/** Events named `event` received so far. */
export function seen(socket, event) {
  return socket.received.filter((e) => e.event === event).map((e) => e.args);
}

/** The last `onlineUsersCount` a socket received (undefined if none). */
export function lastCount(socket) {
  const counts = seen(socket, "onlineUsersCount");
  return counts.length ? counts[counts.length - 1][0] : undefined;
}

/** Waits until `check()` holds (polling every 50 ms), or fails with `what`. */
export async function eventually(what, check, ms = EVENT_TIMEOUT_MS) {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return Date.now();
    if (Date.now() > until) throw new Error(`${typeof what === "function" ? what() : what} (waited ${ms} ms)`);
    await sleep(50);
  }
}

/** Emits `join` and resolves with the server's acknowledgement. */
export function join(socket, room) {
  return socket.timeout(EVENT_TIMEOUT_MS).emitWithAck("join", room);
}
