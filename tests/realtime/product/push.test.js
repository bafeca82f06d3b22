// Presence decides the channel: an event for a person with a live socket reaches their tabs and
// is not pushed; a person with no socket gets one push per device, through the stand-in push
// service (npm web-push-testing, started by scripts/test: it checks the VAPID signature and
// decrypts the payload) — and never both.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api, connect, grantAdmin, join, record, signup, sleep, waitFor } from "./product-helpers.js";

const PUSH = process.env.PRESSROOM_TEST_PUSH_URL;
if (!PUSH) {
  throw new Error("PRESSROOM_TEST_PUSH_URL is not set: run the suites through scripts/test, which starts the stand-in push service");
}

async function pushService(path, body) {
  const res = await fetch(`${PUSH}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  return res.json();
}

/** A device of `user`: a subscription from the stand-in service, registered with the server. */
async function device(user, label) {
  const key = await api("GET", "/push/vapid-public-key");
  assert.equal(key.status, 200);
  const { data } = await pushService("/subscribe", { applicationServerKey: key.body.publicKey, userVisibleOnly: "true" });
  const res = await api(
    "POST",
    "/push/subscriptions",
    { endpoint: data.endpoint, expirationTime: null, keys: data.keys, label },
    user.token,
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return data.clientHash;
}

async function messages(clientHash) {
  const { data } = await pushService("/get-notifications", { clientHash });
  return data.messages.map((m) => JSON.parse(m));
}

/** The device's messages once `n` arrived (up to ten seconds), and a moment more. */
async function expectPushes(clientHash, n) {
  for (let i = 0; i < 100 && (await messages(clientHash)).length < n; i++) await sleep(100);
  await sleep(700);
  const got = await messages(clientHash);
  assert.equal(got.length, n, JSON.stringify(got));
  return got;
}

async function publish(author, title) {
  const res = await api(
    "POST",
    "/post/post-create",
    { title, blocks: [{ id: "p1", type: "paragraph", data: { text: "Words." } }] },
    author.token,
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.post;
}

async function like(reader, post) {
  const res = await api("POST", `/post/like/${post._id}`, undefined, reader.token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

/** Waits until the server no longer counts `user` online (their last tab closed). */
async function offline(watcher, user) {
  // userStatus(userId, isOnline) reaches every socket when a user's last tab closes.
  const seen = record(watcher, "userStatus");
  for (let i = 0; i < 50; i++) {
    if (seen.seen.some(([id, online]) => id === user.id && online === false)) break;
    await sleep(100);
  }
  seen.stop();
  assert.ok(seen.seen.some(([id, online]) => id === user.id && online === false), "the author went offline");
}

test("with a tab open a like is a toast and no push; with every tab closed it is one push per device and no toast", async () => {
  const author = await signup("Author");
  const reader = await signup("Reader");
  const phone = await device(author, "Phone");
  const laptop = await device(author, "Laptop");
  const first = await publish(author, "Seen live");
  const second = await publish(author, "Seen later");
  const watcher = await connect({ token: reader.token, transports: ["websocket"] });
  let tab = await connect({ token: author.token, transports: ["websocket"] });
  try {
    assert.equal(await join(tab, author.id), true);
    const toast = waitFor(tab, "newNotification", (n) => n.type === "like");
    await like(reader, first);
    const [n] = await toast;
    assert.equal(n.post.title, "Seen live");
    await expectPushes(phone, 0);
    await expectPushes(laptop, 0);

    const toasts = record(tab, "newNotification");
    tab.close();
    await offline(watcher, author);
    await like(reader, second);
    for (const hash of [phone, laptop]) {
      const [m] = await expectPushes(hash, 1);
      assert.equal(m.url, `/post/${second.slug}`);
      assert.match(m.body, /Reader liked “Seen later”/);
      assert.equal(m.tag, `likes-${second._id}`);
      assert.equal(m.badge, 2);
    }
    // Coming back right after the push brings the inbox, not a toast of the same like.
    tab = await connect({ token: author.token, transports: ["websocket"] });
    assert.equal(await join(tab, author.id), true);
    const late = record(tab, "newNotification");
    await sleep(800);
    assert.equal(late.seen.length + toasts.seen.length, 0, "no toast of a pushed event");
  } finally {
    tab.close();
    watcher.close();
  }
});

test("an administrator's notice to a person with no tab open is pushed with its text and link", async () => {
  const boss = await signup("Admin");
  grantAdmin(boss.email);
  const user = await signup();
  const phone = await device(user, "Phone");
  const res = await api(
    "POST",
    "/notification/admin",
    { userId: user.id, content: "Your post was featured", navigateTo: "/notifications" },
    boss.token,
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const [m] = await expectPushes(phone, 1);
  assert.equal(m.title, "Pressroom");
  assert.equal(m.body, "Your post was featured");
  assert.equal(m.url, "/notifications");
  assert.equal(m.tag, `n-${res.body.notification._id}`);
});

test("a new post reaches the offline followers with instant alerts on their devices, not those with digest alerts", async () => {
  const author = await signup("Writer");
  const instant = await signup("Keen");
  const digest = await signup("Patient");
  const keenPhone = await device(instant, "Keen phone");
  const patientPhone = await device(digest, "Patient phone");
  for (const [reader, mode] of [[instant, "instant"], [digest, "digest"]]) {
    let res = await api("POST", `/follow/${author.id}`, undefined, reader.token);
    assert.ok([200, 201].includes(res.status), JSON.stringify(res.body));
    res = await api("PUT", `/follow/alerts/${author.id}`, { mode }, reader.token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
  const post = await publish(author, "Hot off the press");
  const [m] = await expectPushes(keenPhone, 1);
  assert.equal(m.body, 'Writer published "Hot off the press"');
  assert.equal(m.url, `/post/${post.slug}`);
  assert.equal(m.tag, `post-${post._id}`);
  await expectPushes(patientPhone, 0);
});
