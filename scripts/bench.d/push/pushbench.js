// The push benchmark's driver (scripts/bench push): N followers of one author with instant
// alerts, each with one device subscribed at the stand-in push service (web-push-testing), seeded
// straight into the database (unverified accounts: no new-post email goes out, so the run times
// the pushes alone); then
//   - publish requests of an author with no followers (the baseline, median of 5),
//   - the publish request of the author with N followers,
//   - from that publish until every device's push was taken by the push service (the post's
//     announcement done and the push outbox empty), then a check that each device got exactly
//     one message,
//   - the raw rate: N messages sent straight to the stand-in by the web-push library (VAPID and
//     aes128gcm, 32 at a time), to fresh subscriptions, in the same run.
// Prints one JSON line. Environment: MONGODB_URI, DB_NAME, API (the server), PUSH (the stand-in), N.
'use strict';
const path = require('path');
const { MongoClient, ObjectId } = require(path.join(__dirname, '..', 'api-reference', 'node_modules', 'mongodb'));
const webpush = require(path.join(__dirname, 'node_modules', 'web-push'));

const N = Number(process.env.N || 10000);
const API = process.env.API;
const PUSH = process.env.PUSH;
const PARALLEL = 32;

async function call(url, method, body, token) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const api = (method, route, body, token) => call(`${API}/api${route}`, method, body, token);
const stand = (route, body) => call(`${PUSH}${route}`, 'POST', body);

async function signup(name) {
  const email = `${name}-${Date.now()}-${Math.random().toString(36).slice(2)}@bench.test`;
  const r = await api('POST', '/auth/signup', { fullName: 'Bench Author', email, password: 'Bench-password-1' });
  return { id: r._id, token: r.token };
}

async function timedPublish(author, title) {
  const started = process.hrtime.bigint();
  const r = await api(
    'POST',
    '/post/post-create',
    { title, blocks: [{ id: 'p1', type: 'paragraph', data: { text: 'A post for the push benchmark.' } }] },
    author.token,
  );
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, id: r.post._id };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs `work(i)` for i in 0..n, `PARALLEL` at a time. */
async function pool(n, work) {
  let next = 0;
  const out = new Array(n);
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, n) }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await work(i);
      }
    }),
  );
  return out;
}

async function main() {
  const client = new MongoClient(process.env.MONGODB_URI);
  await client.connect();
  const db = client.db(process.env.DB_NAME);
  const lonely = await signup('lonely');
  const author = await signup('author');
  const authorId = new ObjectId(author.id);
  const { publicKey } = await api('GET', '/push/vapid-public-key');
  const seeded = Date.now();
  const now = new Date();
  const hashes = await pool(N, async () => {
    const { data } = await stand('/subscribe', { applicationServerKey: publicKey, userVisibleOnly: 'true' });
    return data;
  });
  for (let start = 0; start < N; start += 1000) {
    const users = [];
    const follows = [];
    const devices = [];
    for (let i = start; i < Math.min(N, start + 1000); i += 1) {
      const id = new ObjectId();
      users.push({
        _id: id, name: `Reader ${i}`, email: `reader-${i}@bench.test`, role: 'user', blocked: false,
        isAccountVerified: false, tokenVersion: 0, totalPosts: 0, createdAt: now, updatedAt: now,
      });
      follows.push({ followerId: id, followeeId: authorId, alerts: 'instant', createdAt: now });
      devices.push({
        _id: new ObjectId(), userId: id, endpoint: hashes[i].endpoint, p256dh: hashes[i].keys.p256dh,
        auth: hashes[i].keys.auth, label: `Device ${i}`, createdAt: now,
      });
    }
    await db.collection('users').insertMany(users, { ordered: false });
    await db.collection('follows').insertMany(follows, { ordered: false });
    await db.collection('push_subscriptions').insertMany(devices, { ordered: false });
  }
  const seedMs = Date.now() - seeded;

  const baseline = [];
  for (let i = 0; i < 5; i += 1) baseline.push((await timedPublish(lonely, `Nobody reads this ${i}`)).ms);
  const published = Date.now();
  const big = await timedPublish(author, 'A post for ten thousand devices');
  let figures;
  for (;;) {
    figures = await api('GET', `/post/delivery/${big.id}`, null, author.token);
    if (figures.done && (await db.collection('push_deliveries').countDocuments({})) === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const deliveredMs = Date.now() - published;
  const after = (await timedPublish(lonely, 'Nobody reads this either')).ms;
  const counts = await pool(N, async (i) => (await stand('/get-notifications', { clientHash: hashes[i].clientHash })).data.messages.length);
  const once = counts.filter((c) => c === 1).length;
  const reached = await db.collection('push_subscriptions').countDocuments({ lastDeliveryAt: { $ne: null } });

  // The raw rate: the same number of messages from the web-push library to the stand-in.
  const keys = webpush.generateVAPIDKeys();
  const fresh = await pool(N, async () => (await stand('/subscribe', { applicationServerKey: keys.publicKey, userVisibleOnly: 'true' })).data);
  const payload = JSON.stringify({ title: 'Bench', body: 'A post for ten thousand devices', url: '/post/x', tag: 'post-x', badge: 1 });
  const rawStarted = Date.now();
  // The library builds each request (its VAPID header, its aes128gcm body); it is posted with
  // fetch, since the library's own sender speaks https only and the stand-in listens on http.
  await pool(N, async (i) => {
    const request = webpush.generateRequestDetails(fresh[i], payload, {
      vapidDetails: { subject: 'mailto:bench@example.com', publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: 60,
      contentEncoding: 'aes128gcm',
    });
    const res = await fetch(request.endpoint, { method: request.method, headers: request.headers, body: request.body });
    if (res.status !== 201) throw new Error(`the stand-in refused a message: ${res.status} ${await res.text()}`);
  });
  const rawMs = Date.now() - rawStarted;
  await client.close();
  console.log(
    JSON.stringify({
      n: N,
      seed_ms: seedMs,
      publish_ms_no_followers: median(baseline),
      publish_ms_n_followers: big.ms,
      publish_ms_after: after,
      delivered_ms: deliveredMs,
      notices: figures.notices,
      devices_with_one_message: once,
      devices_noted_delivered: reached,
      raw_ms: rawMs,
    }),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
