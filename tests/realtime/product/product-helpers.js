// Helpers for the product suites: they talk to the real server started by scripts/test
// (PRESSROOM_URL) with the official socket.io-client, and make administrators with the server's CLI.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { io } from "socket.io-client";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const BASE = process.env.PRESSROOM_URL;
if (!BASE) {
  throw new Error("PRESSROOM_URL is not set: run the suites through scripts/test, which starts the server");
}
export const PASSWORD = "correct horse battery";
const EVENT_TIMEOUT_MS = 5_000;

export async function api(method, route, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${BASE}/api${route}`, {
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
  return { status: res.status, body: json };
}

/** Signs up a fresh user; returns { id, email, token, name }. */
export async function signup(name = "Reader") {
  const email = `rt-${randomUUID()}@example.com`;
  const res = await api("POST", "/auth/signup", { fullName: name, email, password: PASSWORD, sendEmail: false });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body._id, email, token: res.body.token, name };
}

/** Makes an account an administrator the way an operator does (the CLI). */
export function grantAdmin(email) {
  const bin = process.env.PRESSROOM_BIN;
  if (!bin) throw new Error("PRESSROOM_BIN is not set");
  execFileSync(bin, ["admin", "grant", email], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PRESSROOM_ENV: "test",
      MONGODB_URI: process.env.PRESSROOM_TEST_MONGODB_URI,
      PRESSROOM__DATABASE__NAME: process.env.PRESSROOM_SUITE_DB,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * Opens a socket to the server; resolves once connected (rejects on connect_error). Every event
 * the socket receives is kept, so `waitFor` also sees events that arrived before it was called.
 */
export function connect({ token, transports = ["websocket", "polling"], upgrade = true } = {}) {
  const socket = io(BASE, {
    path: "/socket.io/",
    transports,
    upgrade,
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

/**
 * Resolves with the args of the first `event` whose args satisfy `match`: one already received
 * (it is consumed) or the next to arrive.
 */
export function waitFor(socket, event, match = () => true, timeout = EVENT_TIMEOUT_MS) {
  if (socket.received) {
    const index = socket.received.findIndex((e) => e.event === event && match(...e.args));
    if (index >= 0) {
      const [found] = socket.received.splice(index, 1);
      return Promise.resolve(found.args);
    }
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
        if (socket.received) {
          const wire = JSON.stringify(args);
          const index = socket.received.findLastIndex((e) => e.event === event && JSON.stringify(e.args) === wire);
          if (index >= 0) socket.received.splice(index, 1);
        }
        resolve(args);
      }
    }
    socket.on(event, handler);
  });
}

/** Events named `event` received so far (and later, as they arrive). */
export function record(socket, event) {
  const seen = (socket.received ?? []).filter((e) => e.event === event).map((e) => e.args);
  const handler = (...args) => seen.push(args);
  socket.on(event, handler);
  return { seen, stop: () => socket.off(event, handler) };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Emits `join` and resolves with the server's acknowledgement (true or false). */
export function join(socket, room) {
  return socket.timeout(EVENT_TIMEOUT_MS).emitWithAck("join", room);
}
