// Starts the conformance example server and offers small helpers shared by the suites.
import { spawn, execFileSync } from "node:child_process";
import { openSync } from "node:fs";
import { createServer } from "node:net";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { io } from "socket.io-client";
import WebSocket from "ws";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const START_TIMEOUT_MS = 60_000;
export const PING_INTERVAL = 300;
export const PING_TIMEOUT = 200;
export const CONNECT_TIMEOUT = 1_000;
export const MAX_PAYLOAD = 1_000_000;

/** Path of the conformance binary: $CONFORMANCE_BIN, or built with cargo. */
function conformanceBinary() {
  if (process.env.CONFORMANCE_BIN) return process.env.CONFORMANCE_BIN;
  const out = execFileSync(
    "cargo",
    ["build", "-p", "pressroom-actors", "--example", "conformance", "--message-format=json"],
    { cwd: REPO_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 << 20 },
  );
  for (const line of out.split("\n")) {
    if (!line.startsWith("{")) continue;
    const msg = JSON.parse(line);
    if (msg.reason === "compiler-artifact" && msg.target?.name === "conformance" && msg.executable) {
      process.env.CONFORMANCE_BIN = msg.executable;
      return msg.executable;
    }
  }
  throw new Error("cargo did not report the conformance executable");
}

async function freePort() {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  server.close();
  await once(server, "close");
  return port;
}

/** Starts the conformance server on a free port; returns { url, wsUrl, stop }. */
export async function startServer() {
  const bin = conformanceBinary();
  const port = await freePort();
  // SERVER_LOG=file keeps the server's log (RUST_LOG sets its level).
  const stderr = process.env.SERVER_LOG ? openSync(process.env.SERVER_LOG, "a") : "inherit";
  const child = spawn(bin, [], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", stderr],
  });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server did not start")), START_TIMEOUT_MS);
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
    child.stdout.on("data", (chunk) => {
      if (String(chunk).includes("listening")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    wsUrl: url.replace("http", "ws"),
    async stop() {
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** A socket.io-client socket that does not reconnect unless asked. */
export function client(url, opts = {}) {
  return io(url, { reconnection: false, forceNew: true, ...opts });
}

/** Resolves with the arguments of the next `event` on `emitter`, or rejects after `ms`. */
export function next(emitter, event, ms = 5_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${event}`)), ms);
    emitter.once(event, (...args) => {
      clearTimeout(timer);
      resolve(args);
    });
  });
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A raw websocket that buffers messages, for protocol-level checks. */
export function rawSocket(url) {
  const ws = new WebSocket(url);
  ws.binaryType = "nodebuffer";
  const queue = [];
  const waiters = [];
  ws.on("message", (data, isBinary) => {
    const item = isBinary ? data : data.toString();
    if (waiters.length) waiters.shift()(item);
    else queue.push(item);
  });
  ws.on("error", () => {});
  ws.closed = new Promise((resolve) => ws.on("close", (code) => resolve(code)));
  /** Next message (pings "2" included), or rejects after `ms`. */
  ws.next = (ms = 5_000) =>
    queue.length
      ? Promise.resolve(queue.shift())
      : new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error("no message")), ms);
          waiters.push((item) => {
            clearTimeout(timer);
            resolve(item);
          });
        });
  /** Next message that is not a ping. */
  ws.nextData = async (ms) => {
    for (;;) {
      const item = await ws.next(ms);
      if (item !== "2") return item;
    }
  };
  ws.opened = new Promise((resolve) => ws.once("open", resolve));
  return ws;
}

/** Resolves with true if `promise` settles within `ms`, else false. */
export async function settlesWithin(promise, ms) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const result = await Promise.race([promise.then(() => true), timeout]);
  clearTimeout(timer);
  return result;
}
