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
  let b = null;
  try {
    await waitFor(a, "onlineUsersCount");
    // Let sockets of earlier tests finish closing (later under load), then read the count.
    const start = await quietCount(counts);
    b = await connect({ transports: ["polling"] });
    await waitFor(a, "onlineUsersCount", (n) => n === start + 1);
    b.close();
    await waitFor(a, "onlineUsersCount", (n) => n === start);
  } finally {
    counts.stop();
    a.close();
    b?.close();
  }
});

/** The count last told once no change has come for a second (at most ten seconds of waiting). */
async function quietCount(counts) {
  for (let waited = 0; waited < 10_000; waited += 1000) {
    const before = counts.seen.length;
    await sleep(1000);
    if (counts.seen.length === before) break;
  }
  return counts.seen[counts.seen.length - 1][0];
}

/** The settled count `watcher` was last told (after earlier tests' sockets finished closing). */
async function settledCount(watcher, counts) {
  await waitFor(watcher, "onlineUsersCount");
  await sleep(700);
  return counts.seen[counts.seen.length - 1][0];
}

test("one user with three tabs counts once: closing two keeps them counted, closing the last removes them", async () => {
  const watcher = await connect({ transports: ["websocket"] });
  const counts = record(watcher, "onlineUsersCount");
  const user = await signup("Three Tabs");
  const tabs = [];
  try {
    const start = await settledCount(watcher, counts);
    tabs.push(await connect({ token: user.token, transports: ["websocket"] }));
    await waitFor(watcher, "onlineUsersCount", (n) => n === start + 1);
    tabs.push(await connect({ token: user.token, transports: ["polling"] }));
    tabs.push(await connect({ token: user.token, transports: ["websocket"] }));
    const [told] = await waitFor(tabs[2], "onlineUsersCount");
    assert.equal(told, start + 1, "the third tab is told the same count");
    await sleep(700);
    assert.equal(counts.seen[counts.seen.length - 1][0], start + 1, "two more tabs add no one");
    const online = await api("GET", "/user/online");
    assert.equal(online.body.count, online.body.users.length + online.body.guests);
    assert.equal(online.body.count, start + 1, "the list and the count agree");

    tabs[0].close();
    tabs[1].close();
    await sleep(700);
    assert.equal(counts.seen[counts.seen.length - 1][0], start + 1, "one tab left: still counted");
    const still = await api("GET", "/user/online");
    assert.ok(still.body.users.some((u) => u._id === user.id));

    tabs[2].close();
    await waitFor(watcher, "onlineUsersCount", (n) => n === start);
  } finally {
    for (const tab of tabs) tab.close();
    counts.stop();
    watcher.close();
  }
});

test("a guest's tabs with its server-issued id count once; a forged id counts per socket", async () => {
  const watcher = await connect({ transports: ["websocket"] });
  const counts = record(watcher, "onlineUsersCount");
  const issued = await api("POST", "/public/guest/visit", {});
  assert.equal(issued.status, 200);
  const guestId = issued.body.guest.guestId;
  const tabs = [];
  try {
    const start = await settledCount(watcher, counts);
    tabs.push(await connect({ guestId, transports: ["websocket"] }));
    tabs.push(await connect({ guestId, transports: ["polling"] }));
    await waitFor(watcher, "onlineUsersCount", (n) => n === start + 1);
    await sleep(700);
    assert.equal(counts.seen[counts.seen.length - 1][0], start + 1, "one guest, two tabs");
    const online = await api("GET", "/user/online");
    assert.equal(online.body.count, online.body.users.length + online.body.guests);

    // An id the server did not sign is not trusted: those sockets count one each.
    const forged = "0".repeat(32) + "-" + "f".repeat(32);
    tabs.push(await connect({ guestId: forged, transports: ["websocket"] }));
    tabs.push(await connect({ guestId: forged, transports: ["websocket"] }));
    await waitFor(watcher, "onlineUsersCount", (n) => n === start + 3);
  } finally {
    for (const tab of tabs) tab.close();
    counts.stop();
    watcher.close();
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
