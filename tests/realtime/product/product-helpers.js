// Helpers for the product suites: they talk to the real server started by scripts/test
// (PRESSROOM_URL) with the official socket.io-client, and make administrators with the server's CLI.
import { apiAt, grantAdminIn, openSocket, signupAt } from "../client.js";

export { PASSWORD, join, sleep, waitFor } from "../client.js";

export const BASE = process.env.PRESSROOM_URL;
if (!BASE) {
  throw new Error("PRESSROOM_URL is not set: run the suites through scripts/test, which starts the server");
}

export function api(method, route, body, token) {
  return apiAt(BASE, method, route, body, token);
}

/** Signs up a fresh user; returns { id, email, token, name }. */
export function signup(name = "Reader") {
  return signupAt(BASE, "rt", name);
}

/** Makes an account an administrator the way an operator does (the CLI). */
export function grantAdmin(email) {
  grantAdminIn(process.env.PRESSROOM_SUITE_DB, email);
}

/**
 * Opens a socket to the server; resolves once connected (rejects on connect_error). Every event
 * the socket receives is kept, so `waitFor` also sees events that arrived before it was called.
 */
export function connect(options = {}) {
  return openSocket(BASE, options);
}

/** Events named `event` received so far (and later, as they arrive). */
export function record(socket, event) {
  const seen = (socket.received ?? []).filter((e) => e.event === event).map((e) => e.args);
  const handler = (...args) => seen.push(args);
  socket.on(event, handler);
  return { seen, stop: () => socket.off(event, handler) };
}
