// What the product and cluster suites share to talk to a server at a base URL: JSON requests,
// sign-ups, administrators made with the server's CLI, socket.io-client sockets that keep every
// event they receive, and waiting for an event.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { io } from "socket.io-client";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const PASSWORD = "correct horse battery";
export const EVENT_TIMEOUT_MS = 5_000;

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** An environment variable the suites cannot run without. */
export function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suites through scripts/test`);
  return value;
}

/** A JSON request to `base`/api`route`; answers { status, body, headers }. */
export async function apiAt(base, method, route, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${base}/api${route}`, {
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

/** Signs up a fresh user at `base` (email starting with `prefix`); returns { id, email, token, name }. */
export async function signupAt(base, prefix, name = "Reader") {
  const email = `${prefix}-${randomUUID()}@example.com`;
  const res = await apiAt(base, "POST", "/auth/signup", { fullName: name, email, password: PASSWORD, sendEmail: false });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body._id, email, token: res.body.token, name };
}

/** Makes an account of database `db` an administrator the way an operator does (the CLI). */
export function grantAdminIn(db, email) {
  execFileSync(required("PRESSROOM_BIN"), ["admin", "grant", email], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PRESSROOM_ENV: "test",
      MONGODB_URI: required("PRESSROOM_TEST_MONGODB_URI"),
      PRESSROOM__DATABASE__NAME: db,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * Opens a socket.io-client socket to `base`; resolves once connected (rejects on connect_error).
 * Every event the socket receives is kept in `socket.received`, so `waitFor` also sees events that
 * arrived before it was called; `socket.openedWith` is the transport the session opened with.
 */
export function openSocket(base, { token, guestId, transports = ["websocket", "polling"], upgrade = true } = {}) {
  const socket = io(base, {
    path: "/socket.io/",
    transports,
    upgrade,
    // A guest names the server-issued id it holds, as the web client does.
    auth: token ? { token } : guestId ? { guestId } : {},
    reconnection: false,
    forceNew: true,
    autoConnect: false,
  });
  socket.received = [];
  socket.onAny((event, ...args) => socket.received.push({ event, args }));
  socket.io.once("open", () => {
    socket.openedWith = socket.io.engine.transport.name;
  });
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

/** Emits `join` and resolves with the server's acknowledgement (true or false). */
export function join(socket, room) {
  return socket.timeout(EVENT_TIMEOUT_MS).emitWithAck("join", room);
}
