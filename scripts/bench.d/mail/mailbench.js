// The mail benchmark's driver (scripts/bench mail): seeds N verified followers of one author
// straight into the database, then publishes posts through the API and times them:
//   - publish requests of an author with no followers (the baseline, median of 5),
//   - the publish request of the author with N followers,
//   - from that publish until the post's delivery figures say every email went out.
// Prints one JSON line. Environment: MONGODB_URI, DB_NAME, API (the server's address), N.
'use strict';
const path = require('path');
const { MongoClient, ObjectId } = require(path.join(__dirname, '..', 'api-reference', 'node_modules', 'mongodb'));

const N = Number(process.env.N || 10000);
const API = process.env.API;

async function api(method, route, body, token) {
  const res = await fetch(`${API}/api${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
  return JSON.parse(text);
}

async function signup(name) {
  const email = `${name}-${Date.now()}-${Math.random().toString(36).slice(2)}@bench.test`;
  const r = await api('POST', '/auth/signup', { fullName: 'Bench Author', email, password: 'Bench-password-1' });
  return { id: r._id, token: r.token };
}

function post(title) {
  return {
    title,
    blocks: [
      { id: 'p1', type: 'paragraph', data: { text: 'A post for the mail benchmark. '.repeat(20) } },
      { id: 'p2', type: 'paragraph', data: { text: 'Its second paragraph, to make the email a realistic size. '.repeat(10) } },
    ],
  };
}

async function timedPublish(author, title) {
  const started = process.hrtime.bigint();
  const r = await api('POST', '/post/post-create', post(title), author.token);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ms, id: r.post._id };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const client = new MongoClient(process.env.MONGODB_URI);
  await client.connect();
  const db = client.db(process.env.DB_NAME);
  const lonely = await signup('lonely');
  const author = await signup('author');
  const authorId = new ObjectId(author.id);
  const seeded = Date.now();
  const now = new Date();
  for (let start = 0; start < N; start += 1000) {
    const users = [];
    const follows = [];
    for (let i = start; i < Math.min(N, start + 1000); i += 1) {
      const id = new ObjectId();
      users.push({
        _id: id,
        name: `Reader ${i}`,
        email: `reader-${i}@bench.test`,
        role: 'user',
        blocked: false,
        isAccountVerified: true,
        tokenVersion: 0,
        totalPosts: 0,
        createdAt: now,
        updatedAt: now,
      });
      follows.push({ followerId: id, followeeId: authorId, createdAt: now });
    }
    await db.collection('users').insertMany(users, { ordered: false });
    await db.collection('follows').insertMany(follows, { ordered: false });
  }
  const seedMs = Date.now() - seeded;

  const baseline = [];
  for (let i = 0; i < 5; i += 1) baseline.push((await timedPublish(lonely, `Nobody reads this ${i}`)).ms);
  const published = Date.now();
  const big = await timedPublish(author, 'A post for ten thousand readers');
  let figures;
  for (;;) {
    figures = await api('GET', `/post/delivery/${big.id}`, null, author.token);
    if (figures.done) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const deliveredMs = Date.now() - published;
  // A publish of the lonely author while nothing is being sent any more: the same as before.
  const after = (await timedPublish(lonely, 'Nobody reads this either')).ms;
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
      emails_sent: figures.emailsSent,
      emails_failed: figures.emailsFailed,
    }),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
