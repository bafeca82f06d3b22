// A cluster for the two-node suites: a Redis of its own (so a test can stop and restart it) and
// server processes over the same database (FerretDB started by scripts/test) and that Redis,
// each on its own port. Clients talk to each node directly, as a load balancer would send them.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, openSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { EVENT_TIMEOUT_MS, apiAt, grantAdminIn, openSocket, required, signupAt, sleep } from "../client.js";

export { EVENT_TIMEOUT_MS, PASSWORD, join, required, sleep, waitFor } from "../client.js";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const START_TIMEOUT_MS = 60_000;

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
    // A process killed by a signal has no exit code, only its signal.
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return;
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
    // A process killed by a signal has no exit code, only its signal.
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, "exit");
    this.child.kill(signal);
    await exited;
  }

  api(method, route, body, token) {
    return apiAt(this.url, method, route, body, token);
  }

  /** Signs up a fresh user through this node; returns { id, email, token, name }. */
  signup(name = "Reader") {
    return signupAt(this.url, "cl", name);
  }

  /** Opens a socket.io-client socket to this node (websocket unless told); resolves once connected. */
  connect({ token, transports = ["websocket"] } = {}) {
    return openSocket(this.url, { token, transports });
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
  grantAdminIn(cluster.db, email);
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
