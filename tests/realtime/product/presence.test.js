// Presence over the real server: online counts, user status across tabs, the online users list.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api, connect, record, signup, sleep, waitFor } from "./product-helpers.js";

test("a guest is counted online and receives onlineUsersCount as a number on connect", async () => {
  const guest = await connect({ transports: ["websocket"] });
  try {
    const [count] = await waitFor(guest, "onlineUsersCount");
    assert.equal(typeof count, "number");
    assert.ok(count >= 1);
  } finally {
    guest.close();
  }
});

test("every transport connects with a token: websocket only, polling only, polling then upgrade", async () => {
  const user = await signup();
  for (const options of [
    { transports: ["websocket"] },
    { transports: ["polling"] },
    { transports: ["polling", "websocket"] },
  ]) {
    const socket = await connect({ token: user.token, ...options });
    try {
      assert.ok(socket.connected, JSON.stringify(options));
      const [count] = await waitFor(socket, "onlineUsersCount");
      assert.ok(count >= 1);
      if (options.transports.length === 2) {
        if (socket.io.engine.transport.name !== "websocket") {
          await new Promise((resolve) => socket.io.engine.once("upgrade", resolve));
        }
        assert.equal(socket.io.engine.transport.name, "websocket");
      }
    } finally {
      socket.close();
    }
  }
});

test("the online count in one client rises when a second client opens and falls when it closes", async () => {
  const a = await connect({ transports: ["websocket"] });
  const counts = record(a, "onlineUsersCount");
  try {
    await waitFor(a, "onlineUsersCount");
    // Let sockets of earlier tests finish closing, then read the settled count.
    await sleep(700);
    const start = counts.seen[counts.seen.length - 1][0];
    const b = await connect({ transports: ["polling"] });
    await waitFor(a, "onlineUsersCount", (n) => n === start + 1);
    b.close();
    await waitFor(a, "onlineUsersCount", (n) => n === start);
  } finally {
    counts.stop();
    a.close();
  }
});

test("userStatus goes online with the first tab and offline with the last, without flapping", async () => {
  const watcher = await connect({ transports: ["websocket"] });
  const user = await signup("Tabby");
  const statuses = record(watcher, "userStatus");
  try {
    const tab1 = await connect({ token: user.token, transports: ["websocket"] });
    await waitFor(watcher, "userStatus", (id, online) => id === user.id && online === true);
    const tab2 = await connect({ token: user.token, transports: ["polling"] });
    await sleep(400);
    tab1.close();
    await sleep(400);
    const mine = statuses.seen.filter(([id]) => id === user.id);
    assert.deepEqual(mine, [[user.id, true]], "a second tab and closing one of two change nothing");
    tab2.close();
    await waitFor(watcher, "userStatus", (id, online) => id === user.id && online === false);
  } finally {
    statuses.stop();
    watcher.close();
  }
});

test("GET /api/user/online lists connected users' public profiles and counts guests", async () => {
  const user = await signup("Olive Online");
  const socket = await connect({ token: user.token, transports: ["websocket"] });
  const guest = await connect({ transports: ["websocket"] });
  try {
    await sleep(300);
    const res = await api("GET", "/user/online");
    assert.equal(res.status, 200);
    const me = res.body.users.find((u) => u._id === user.id);
    assert.ok(me, "the connected user is listed");
    assert.equal(me.name, "Olive Online");
    assert.equal(me.email, undefined, "no private fields");
    assert.ok(res.body.guests >= 1);
    assert.ok(res.body.count >= 2);
  } finally {
    socket.close();
    guest.close();
  }
  await sleep(300);
  const after = await api("GET", "/user/online");
  assert.equal(after.body.users.find((u) => u._id === user.id), undefined, "gone once disconnected");
});
