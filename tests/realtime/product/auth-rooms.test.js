// Socket authentication and room rules over the real server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api, connect, grantAdmin, join, PASSWORD, signup, waitFor } from "./product-helpers.js";

test("a forged token is refused with a connect_error carrying a message", async () => {
  const user = await signup();
  const forged = user.token.slice(0, -2) + (user.token.endsWith("AA") ? "BB" : "AA");
  await assert.rejects(connect({ token: forged, transports: ["websocket"] }), (err) => {
    assert.match(err.message, /invalid or has expired/);
    return true;
  });
  await assert.rejects(connect({ token: "not.a.jwt", transports: ["polling"] }));
});

test("join with your own id is accepted; another user's id is refused", async () => {
  const me = await signup();
  const other = await signup();
  const socket = await connect({ token: me.token, transports: ["websocket"] });
  try {
    assert.equal(await join(socket, me.id), true);
    assert.equal(await join(socket, other.id), false);
  } finally {
    socket.close();
  }
  const guest = await connect({ transports: ["websocket"] });
  try {
    assert.equal(await join(guest, me.id), false, "a guest joins no user room");
  } finally {
    guest.close();
  }
});

test("adminRoom is for administrators only", async () => {
  const user = await signup();
  const admin = await signup("Admin");
  grantAdmin(admin.email);
  const userSocket = await connect({ token: user.token, transports: ["websocket"] });
  const adminSocket = await connect({ token: admin.token, transports: ["websocket"] });
  try {
    assert.equal(await join(userSocket, "adminRoom"), false);
    assert.equal(await join(adminSocket, "adminRoom"), true);
  } finally {
    userSocket.close();
    adminSocket.close();
  }
});

test("logging out disconnects the user's sockets, and the revoked token cannot reconnect", async () => {
  const user = await signup();
  const socket = await connect({ token: user.token, transports: ["websocket"] });
  const closed = waitFor(socket, "disconnect");
  const res = await api("POST", "/auth/logout", {}, user.token);
  assert.equal(res.status, 200);
  const [reason] = await closed;
  assert.equal(reason, "io server disconnect");
  await assert.rejects(connect({ token: user.token, transports: ["websocket"] }), /session has ended/);
});

test("changing the password disconnects the other sessions' sockets; the new token connects", async () => {
  const user = await signup();
  const other = (await api("POST", "/auth/login", { email: user.email, password: PASSWORD })).body.token;
  const otherSocket = await connect({ token: other, transports: ["websocket"] });
  const closed = waitFor(otherSocket, "disconnect");
  const res = await api("POST", "/auth/change-password", { currentPassword: PASSWORD, newPassword: "a fresh good password" }, user.token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const [reason] = await closed;
  assert.equal(reason, "io server disconnect");
  await assert.rejects(connect({ token: other, transports: ["websocket"] }), /session has ended/);
  const fresh = await connect({ token: res.body.token, transports: ["websocket"] });
  fresh.close();
});

test("logging out everywhere disconnects every socket of the user", async () => {
  const user = await signup();
  const socket = await connect({ token: user.token, transports: ["websocket"] });
  const closed = waitFor(socket, "disconnect");
  const res = await api("POST", "/auth/logout-all", {}, user.token);
  assert.equal(res.status, 200);
  const [reason] = await closed;
  assert.equal(reason, "io server disconnect");
  await assert.rejects(connect({ token: user.token, transports: ["websocket"] }), /session has ended/);
});

test("a password reset disconnects live sockets", async () => {
  const user = await signup();
  const socket = await connect({ token: user.token, transports: ["polling"] });
  const closed = waitFor(socket, "disconnect");
  const { resetPasswordWithMailedCode } = await import("./mail.js");
  await resetPasswordWithMailedCode(user.email, "another good password");
  const [reason] = await closed;
  assert.equal(reason, "io server disconnect");
});
