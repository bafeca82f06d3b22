// Notifications over the real server: who receives newNotification and updateUnreadCount(count),
// and that every tab of the addressee follows the unread count.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api, connect, grantAdmin, join, record, signup, sleep, waitFor } from "./product-helpers.js";

async function admin() {
  const a = await signup("Admin");
  grantAdmin(a.email);
  return a;
}

async function notice(from, to, content) {
  const res = await api("POST", "/notification/admin", { userId: to.id, content }, from.token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.notification;
}

test("a notice reaches every tab of its addressee and nobody else, even one who tries to join their room", async () => {
  const boss = await admin();
  const user = await signup();
  const other = await signup();
  const tab1 = await connect({ token: user.token, transports: ["websocket"] });
  const tab2 = await connect({ token: user.token, transports: ["polling"] });
  const snoop = await connect({ token: other.token, transports: ["websocket"] });
  const guest = await connect({ transports: ["websocket"] });
  try {
    assert.equal(await join(tab1, user.id), true);
    assert.equal(await join(tab2, user.id), true);
    assert.equal(await join(snoop, user.id), false);
    const snooped = [record(snoop, "newNotification"), record(snoop, "updateUnreadCount")];
    const guestSaw = record(guest, "newNotification");
    const arrivals = [tab1, tab2].map((s) => waitFor(s, "newNotification", (n) => n.content === "Hello there"));
    const counts = [tab1, tab2].map((s) => waitFor(s, "updateUnreadCount", (c) => c === 1));
    const sent = await notice(boss, user, "Hello there");
    for (const [n] of await Promise.all(arrivals)) {
      assert.equal(n._id, sent._id);
      assert.equal(n.type, "admin");
      assert.equal(n.read, false);
      assert.equal(n.sender.name, "Admin");
    }
    for (const args of await Promise.all(counts)) {
      assert.deepEqual(args, [1], "updateUnreadCount carries one bare number");
    }
    await sleep(300);
    assert.equal(snooped[0].seen.length + snooped[1].seen.length, 0, "another user hears nothing");
    assert.equal(guestSaw.seen.length, 0, "a guest hears nothing");
  } finally {
    for (const s of [tab1, tab2, snoop, guest]) s.close();
  }
});

test("marking read, marking all read and deleting in one tab update the count in the other", async () => {
  const boss = await admin();
  const user = await signup();
  const a = await notice(boss, user, "one");
  await notice(boss, user, "two");
  const c = await notice(boss, user, "three");
  const other = await connect({ token: user.token, transports: ["websocket"] });
  try {
    let next = waitFor(other, "updateUnreadCount", (n) => n === 2);
    let res = await api("PATCH", `/notification/mark-as-read/${a._id}`, {}, user.token);
    assert.equal(res.status, 200);
    await next;

    next = waitFor(other, "updateUnreadCount", (n) => n === 1);
    res = await api("DELETE", `/notification/${c._id}`, undefined, user.token);
    assert.equal(res.status, 200);
    await next;

    next = waitFor(other, "updateUnreadCount", (n) => n === 0);
    res = await api("PATCH", "/notification/mark-all-as-read", {}, user.token);
    assert.equal(res.status, 200);
    await next;
    const count = await api("GET", "/notification/unread-count", undefined, user.token);
    assert.equal(count.body.count, 0);
  } finally {
    other.close();
  }
});

test("a broadcast notice reaches every connected user with their own item as adminNoticeBroadcast (never newBroadcastNotification), not the sender, and never a guest", async () => {
  const boss = await admin();
  const a = await signup();
  const b = await signup();
  const sa = await connect({ token: a.token, transports: ["websocket"] });
  const sb = await connect({ token: b.token, transports: ["websocket"] });
  const sboss = await connect({ token: boss.token, transports: ["websocket"] });
  const guest = await connect({ transports: ["websocket"] });
  try {
    const bossSaw = record(sboss, "newNotification");
    const bossAnnounced = record(sboss, "adminNoticeBroadcast");
    const guestAnnounced = record(guest, "adminNoticeBroadcast");
    const asBanner = [sa, sb, guest].map((s) => record(s, "newBroadcastNotification"));
    const content = `Maintenance ${Date.now()}`;
    const got = [sa, sb].map((s) => waitFor(s, "newNotification", (n) => n.content === content));
    const announced = [sa, sb].map((s) => waitFor(s, "adminNoticeBroadcast", (n) => n.content === content));
    assert.equal(await join(sboss, "adminRoom"), true);
    const progress = record(sboss, "adminJobProgress");
    const started = Date.now();
    const res = await api("POST", "/notification/broadcast", { content }, boss.token);
    // Queued to the job worker: answered at once with the job's id.
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.ok(Date.now() - started < 1000, `answered in ${Date.now() - started} ms`);
    assert.equal(typeof res.body.jobId, "string");
    const finished = waitFor(sboss, "adminJobProgress", (p) => p.jobId === res.body.jobId && p.status === "done", 15000);
    const [[na], [nb]] = await Promise.all(got);
    assert.equal(na.user, a.id);
    assert.equal(nb.user, b.id);
    const [[toA], [toB]] = await Promise.all(announced);
    // The announcement is each user's own stored notification: same _id, same fields.
    assert.deepEqual({ ...toA, broadcast: undefined }, { ...na, broadcast: undefined });
    assert.equal(toB._id, nb._id);
    for (const n of [toA, toB]) {
      assert.equal(n.type, "admin");
      assert.equal(n.broadcast, true);
      assert.equal(n.sender.name, "Admin");
      assert.equal(n.title, undefined, "a notice is not a banner");
    }
    await sleep(300);
    assert.equal(bossSaw.seen.filter(([n]) => n.content === content).length, 0);
    const about = (seen) => seen.filter(([n]) => n?.content === content).length;
    assert.equal(about(bossAnnounced.seen), 0, "the sender is not an addressee");
    assert.equal(about(guestAnnounced.seen), 0, "guests hear nothing of a notice");
    for (const banners of asBanner) assert.equal(about(banners.seen), 0, "newBroadcastNotification carries banners only");
    const [done] = await finished;
    assert.equal(done.kind, "broadcast");
    assert.equal(done.done, done.total);
    assert.match(done.message, /^Notification sent to \d+ users$/);
    assert.ok(progress.seen.some(([p]) => p.jobId === res.body.jobId && p.status === "running"), "progress while it runs");
  } finally {
    for (const s of [sa, sb, sboss, guest]) s.close();
  }
});

test("a reply reaches the original sender live", async () => {
  const boss = await admin();
  const user = await signup();
  const sent = await notice(boss, user, "Please check your post");
  const bossSocket = await connect({ token: boss.token, transports: ["websocket"] });
  try {
    const arrival = waitFor(bossSocket, "newNotification", (n) => n.type === "admin_reply");
    const res = await api("POST", "/notification/reply", { notificationId: sent._id, content: "Fixed" }, user.token);
    assert.equal(res.status, 201);
    const [n] = await arrival;
    assert.equal(n.content, "Fixed");
    assert.equal(n.sender._id, user.id);
  } finally {
    bossSocket.close();
  }
});

test("a new post reaches its author's online follower live, never a stranger, and its figures reach the author", async () => {
  const author = await signup("Writer");
  const follower = await signup();
  const stranger = await signup();
  let res = await api("POST", `/follow/${author.id}`, {}, follower.token);
  assert.ok([200, 201].includes(res.status), JSON.stringify(res.body));
  const tab = await connect({ token: follower.token, transports: ["websocket"] });
  const strangerTab = await connect({ token: stranger.token, transports: ["websocket"] });
  const authorTab = await connect({ token: author.token, transports: ["websocket"] });
  try {
    assert.equal(await join(tab, follower.id), true);
    assert.equal(await join(strangerTab, stranger.id), true);
    assert.equal(await join(authorTab, author.id), true);
    const strangerSaw = record(strangerTab, "newNotification");
    const arrival = waitFor(tab, "newNotification", (n) => n.type === "new_post");
    const count = waitFor(tab, "updateUnreadCount", (c) => c === 1);
    const figures = waitFor(authorTab, "postDeliveryUpdated", (f) => f.done === true);
    res = await api(
      "POST",
      "/post/post-create",
      { title: "Live off the press", blocks: [{ id: "p1", type: "paragraph", data: { text: "Fresh." } }] },
      author.token,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const post = res.body.post;
    const [n] = await arrival;
    assert.equal(n.navigateTo, `/post/${post.slug}`);
    assert.equal(n.sender._id, author.id);
    assert.equal(n.post.title, "Live off the press");
    assert.equal(n.content, 'Writer published "Live off the press"');
    await count;
    const [f] = await figures;
    assert.equal(f.postId, post._id);
    assert.equal(f.notices, 1);
    // In the inbox afterwards.
    const inbox = await api("GET", "/notification/notifications", undefined, follower.token);
    assert.equal(inbox.body.notifications.filter((x) => x.type === "new_post").length, 1);
    await sleep(300);
    assert.equal(strangerSaw.seen.length, 0, "a stranger hears nothing");
  } finally {
    for (const s of [tab, strangerTab, authorTab]) s.close();
  }
});
