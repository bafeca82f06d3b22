// Two server processes over one database and one Redis: every event reaches exactly its audience
// on both nodes, presence counts the whole cluster, a dead node is forgotten within the heartbeat
// TTL, revocations and rate limits are cluster-wide, and both nodes keep serving while Redis is
// away and rejoin when it returns.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  eventually,
  grantAdmin,
  join,
  lastCount,
  PASSWORD,
  seen,
  sleep,
  startCluster,
  waitFor,
} from "./cluster-helpers.js";

const TTL_MS = 3_000;
let cluster;
let a;
let b;

before(async () => {
  cluster = await startCluster({ nodes: 2, ttlMs: TTL_MS });
  [a, b] = cluster.nodes;
});

after(async () => {
  await cluster?.stop();
});

async function createPost(node, token, title) {
  const res = await node.api(
    "POST",
    "/post/post-create",
    { title, blocks: [{ id: "p1", type: "paragraph", data: { text: "Across nodes" } }] },
    token,
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.post;
}

async function admin(node) {
  const boss = await node.signup("Admin");
  grantAdmin(cluster, boss.email);
  return boss;
}

function closeAll(...sockets) {
  for (const s of sockets) s?.close();
}

test("a like through node A reaches the author's socket on node B", async () => {
  const author = await a.signup("Author");
  const reader = await a.signup("Reader");
  const post = await createPost(a, author.token, "Liked across nodes");
  const tab = await b.connect({ token: author.token });
  try {
    assert.equal(await join(tab, author.id), true);
    const like = await a.api("POST", `/post/like/${post._id}`, {}, reader.token);
    assert.equal(like.status, 200, JSON.stringify(like.body));
    const [notification] = await waitFor(tab, "newNotification", (n) => n.type === "like");
    assert.equal(notification.post?._id ?? notification.post ?? notification.postId, post._id);
    assert.deepEqual(await waitFor(tab, "updateUnreadCount"), [1]);
    await sleep(300);
    assert.equal(seen(tab, "newNotification").length, 0, "delivered once");
  } finally {
    closeAll(tab);
  }
});

test("an appeal through node A reaches an administrator on node B, not a user socket", async () => {
  const boss = await admin(b);
  const author = await a.signup("Appealing Author");
  const post = await createPost(a, author.token, "Please reconsider");
  const adminSocket = await b.connect({ token: boss.token });
  const userOnB = await b.connect({ token: author.token, transports: ["polling"] });
  const userOnA = await a.connect({ token: author.token });
  try {
    assert.equal(await join(adminSocket, "adminRoom"), true);
    assert.equal(await join(userOnB, author.id), true);
    const blocked = await b.api("PATCH", `/admin/posts/block/${post._id}`, undefined, boss.token);
    assert.equal(blocked.status, 200);
    // The block reaches everyone, on both nodes, once.
    await waitFor(userOnA, "postBlockToggled", (id, on) => id === post._id && on === true);
    await waitFor(userOnB, "postBlockToggled", (id, on) => id === post._id && on === true);
    const res = await a.api("POST", `/post/appeal/${post._id}`, { message: "It follows the rules." }, author.token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(await waitFor(adminSocket, "newAppeal"), [post._id, "Please reconsider"]);
    await sleep(300);
    assert.equal(seen(adminSocket, "newAppeal").length, 0, "delivered once");
    assert.equal(seen(userOnB, "newAppeal").length + seen(userOnA, "newAppeal").length, 0, "users hear nothing");
  } finally {
    closeAll(adminSocket, userOnB, userOnA);
  }
});

test("the online count is the cluster's and the same on both nodes", async () => {
  const baseline = (await a.api("GET", "/user/online")).body;
  const before = baseline.count ?? baseline.onlineCount ?? null;
  const sockets = [];
  try {
    sockets.push(await a.connect(), await a.connect(), await b.connect({ transports: ["polling"] }));
    const user = await b.signup("Counted");
    sockets.push(await b.connect({ token: user.token }));
    // Every socket ends on the same count, whichever node it is on.
    await eventually("every socket sees the same cluster-wide count", () => {
      const counts = sockets.map(lastCount);
      return counts.every((c) => c !== undefined && c === counts[0] && c >= 4);
    });
    const counts = sockets.map(lastCount);
    const online = [(await a.api("GET", "/user/online")).body, (await b.api("GET", "/user/online")).body];
    assert.deepEqual(online[0], online[1], "both nodes list the same users");
    assert.ok(JSON.stringify(online[0]).includes(user.id), JSON.stringify(online[0]));
    const health = await (await fetch(`${a.url}/health`)).json();
    assert.equal(health.redis, "ok");
    assert.ok(counts[0] >= 4, `count ${counts[0]} (before: ${before})`);
  } finally {
    closeAll(...sockets);
  }
});

test("a user with three tabs on two nodes counts once and goes offline only when all close", async () => {
  const user = await a.signup("Two Tabs");
  const watcher = await b.connect();
  const tabA = await a.connect({ token: user.token });
  let tabB;
  let tabC;
  try {
    await waitFor(watcher, "userStatus", (id, on) => id === user.id && on === true);
    // The count once it stopped moving (the first tab counted, earlier tests' sockets gone).
    let withOneTab;
    let stableSince = Date.now();
    await eventually("the count settles", () => {
      if (lastCount(watcher) !== withOneTab) {
        withOneTab = lastCount(watcher);
        stableSince = Date.now();
      }
      return Date.now() - stableSince >= 500;
    });
    // A tab is told the count once its registration reached Redis: both later tabs are
    // counted cluster-wide before the first closes (otherwise offline-then-online is right).
    tabB = await b.connect({ token: user.token });
    tabC = await a.connect({ token: user.token, transports: ["polling"] });
    assert.deepEqual(await waitFor(tabB, "onlineUsersCount"), [withOneTab], "a second tab adds no one");
    assert.deepEqual(await waitFor(tabC, "onlineUsersCount"), [withOneTab], "nor a third, on node A");
    await sleep(600);
    assert.equal(lastCount(watcher), withOneTab, "the count on node B did not move");
    const online = (await b.api("GET", "/user/online")).body;
    assert.equal(online.count, online.users.length + online.guests, JSON.stringify(online));
    assert.equal(online.users.filter((u) => u._id === user.id).length, 1);
    tabA.close();
    tabC.close();
    await sleep(800);
    assert.deepEqual(
      seen(watcher, "userStatus").filter(([id]) => id === user.id),
      [],
      "no flap while a tab is open on the other node",
    );
    assert.equal(lastCount(watcher), withOneTab, "two of three tabs closed: still counted");
    tabB.close();
    await waitFor(watcher, "userStatus", (id, on) => id === user.id && on === false);
    await eventually("the last tab closed removes them", () => lastCount(watcher) === withOneTab - 1);
    await sleep(300);
    assert.equal(seen(watcher, "userStatus").filter(([id]) => id === user.id).length, 0, "offline once");
  } finally {
    closeAll(watcher, tabA, tabB, tabC);
  }
});

test("logout on node A disconnects the user's socket on node B", async () => {
  const user = await a.signup("Leaving");
  const tab = await b.connect({ token: user.token });
  try {
    const gone = new Promise((resolve) => tab.once("disconnect", resolve));
    const res = await a.api("POST", "/auth/logout", {}, user.token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(await Promise.race([gone, sleep(5_000).then(() => "still connected")]), "io server disconnect");
  } finally {
    closeAll(tab);
  }
});

test("ending one session on node A closes its socket on node B and refuses its token there; the other session stays", async () => {
  const user = await a.signup("Two Devices");
  const login = await b.api("POST", "/auth/login", { email: user.email, password: PASSWORD });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  const second = login.body.token;
  const listed = await a.api("GET", "/auth/sessions", undefined, second);
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  const first = listed.body.sessions.find((s) => !s.current);
  assert.ok(first, JSON.stringify(listed.body));
  const ended = await b.connect({ token: user.token });
  const staying = await b.connect({ token: second });
  try {
    const gone = new Promise((resolve) => ended.once("disconnect", resolve));
    let otherGone = false;
    staying.once("disconnect", () => { otherGone = true; });
    const res = await a.api("DELETE", `/auth/sessions/${first.id}`, undefined, second);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(await Promise.race([gone, sleep(5_000).then(() => "still connected")]), "io server disconnect");
    assert.equal((await b.api("GET", "/auth/check", undefined, user.token)).status, 401);
    assert.equal((await b.api("GET", "/auth/check", undefined, second)).status, 200);
    await sleep(300);
    assert.equal(otherGone, false, "the other session's socket stays connected");
  } finally {
    closeAll(ended, staying);
  }
});

test("eleven logins spread over both nodes trip the limit of ten", async () => {
  const user = await a.signup("Forgetful");
  const statuses = [];
  for (let i = 0; i < 11; i++) {
    const node = i % 2 === 0 ? a : b;
    const res = await node.api("POST", "/auth/login", { email: user.email, password: "wrong password" });
    statuses.push(res.status);
    if (i === 10) {
      assert.equal(res.status, 429, JSON.stringify(res.body));
      const retryAfter = Number(res.headers.get("retry-after"));
      assert.ok(retryAfter >= 1 && retryAfter <= 900, `Retry-After ${retryAfter}`);
      assert.match(res.body.message, /Too many attempts/);
    }
  }
  assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
});

test("an API key made on node A works on node B, and once revoked on A is refused on B at once", async () => {
  const writer = await a.signup("Tooling");
  const made = await a.api("POST", "/keys", { name: "Scheduler", scopes: ["read:posts"] }, writer.token);
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const key = made.body.key;
  const before = await b.api("GET", "/post/count/my", undefined, key);
  assert.equal(before.status, 200, JSON.stringify(before.body));
  const revoked = await a.api("DELETE", `/keys/${made.body.id}`, undefined, writer.token);
  assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
  const after = await b.api("GET", "/post/count/my", undefined, key);
  assert.equal(after.status, 401, JSON.stringify(after.body));
  assert.equal(after.body.code, "api_key_revoked");
});

test("a banner created on node A shows on node B, and its expiry fires once", async () => {
  const boss = await admin(a);
  const onA = await a.connect();
  const onB = await b.connect({ transports: ["polling"] });
  const titles = async (node) => {
    const res = await node.api("GET", "/bannerNotification/get-Notification");
    assert.equal(res.status, 200);
    return res.body.notifications.map((x) => x.title);
  };
  try {
    const title = `Across nodes ${Date.now()}`;
    const expiresAt = new Date(Date.now() + 2_000).toISOString();
    const res = await a.api("POST", "/bannerNotification/create", { title, message: "m", expiresAt }, boss.token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const banner = res.body.notification;
    await waitFor(onB, "newBroadcastNotification", (x) => x.title === title);
    await waitFor(onA, "newBroadcastNotification", (x) => x.title === title);
    await eventually("node B lists the banner", async () => (await titles(b)).includes(title));
    assert.ok((await titles(a)).includes(title));

    await waitFor(onB, "broadcastNotificationDeactivated", (id) => id === banner._id, 6_000);
    await sleep(1_000);
    for (const socket of [onA, onB]) {
      const expiries = socket.received.filter((e) => e.event === "broadcastNotificationDeactivated" && e.args[0] === banner._id);
      assert.equal(expiries.length, socket === onB ? 0 : 1, "the expiry is announced once");
    }
    assert.ok(!(await titles(a)).includes(title));
    assert.ok(!(await titles(b)).includes(title));
  } finally {
    closeAll(onA, onB);
  }
});

test("killing node A makes node B drop A's sockets from the count within the TTL", async (t) => {
  const user = await a.signup("On A");
  const watcher = await b.connect();
  const onA = [await a.connect(), await a.connect({ token: user.token })];
  try {
    await eventually("both nodes count A's sockets", () => lastCount(watcher) >= 3 && lastCount(onA[0]) === lastCount(watcher));
    const withA = lastCount(watcher);
    await a.stop("SIGKILL");
    const killedAt = Date.now();
    // A's last heartbeat was at or before the kill, so "within the TTL of the last heartbeat"
    // is at most the TTL from the kill (B's count reaches the watcher through the same 200 ms
    // coalescing as any change).
    const droppedAt = await eventually(
      "B drops A's sockets",
      () => lastCount(watcher) === withA - 2,
      TTL_MS * 3,
    );
    t.diagnostic(`A's sockets dropped ${droppedAt - killedAt} ms after the kill (TTL ${TTL_MS} ms)`);
    assert.ok(droppedAt - killedAt <= TTL_MS, `dropped after ${droppedAt - killedAt} ms (TTL ${TTL_MS})`);
    await waitFor(watcher, "userStatus", (id, on) => id === user.id && on === false);
    const online = (await b.api("GET", "/user/online")).body;
    assert.ok(!JSON.stringify(online).includes(user.id), JSON.stringify(online));
  } finally {
    closeAll(watcher, ...onA);
    await a.start();
  }
});

test("with Redis stopped both nodes keep serving, and they rejoin when it returns", async () => {
  const guestA = await a.connect();
  const guestB = await b.connect();
  try {
    await cluster.redis.stop();
    await eventually("both nodes report Redis down", async () => {
      const states = await Promise.all([a, b].map(async (n) => (await (await fetch(`${n.url}/health`)).json()).redis));
      return states.every((s) => s === "down");
    });
    for (const node of [a, b]) {
      const res = await fetch(`${node.url}/health`);
      assert.equal(res.status, 200, "the database checks still pass");
      const user = await node.signup("During the outage");
      const socket = await node.connect({ token: user.token });
      socket.close();
    }
    await cluster.redis.start();
    await eventually(
      "both nodes report Redis up",
      async () => {
        const states = await Promise.all([a, b].map(async (n) => (await (await fetch(`${n.url}/health`)).json()).redis));
        return states.every((s) => s === "ok");
      },
      10_000,
    );
    // Rejoined: a socket opened on A counts on B again.
    await eventually(
      () => `the nodes count each other's sockets again (A: ${JSON.stringify(seen(guestA, "onlineUsersCount"))}, B: ${JSON.stringify(seen(guestB, "onlineUsersCount"))})`,
      () => lastCount(guestB) === 2 && lastCount(guestA) === 2,
      10_000,
    );
    const third = await a.connect();
    try {
      await eventually("a new socket on A is counted on B", () => lastCount(guestB) === 3, 5_000);
    } finally {
      third.close();
    }
  } finally {
    closeAll(guestA, guestB);
  }
});
