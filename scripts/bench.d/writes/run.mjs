// The requests `scripts/bench writes` times, one at a time, through HTTP against a running server
// (API): liking and unliking, bookmarking, commenting (add, edit, react, delete), viewing,
// sharing, following and unfollowing, signing in, auth/check, a session's first request, the
// unread count, the notification list, marking one and all read, publishing, editing and deleting
// a post, voting in a poll and a subscriber reading a subscriber-only post; then the store's
// floors: one document looked up and updated by _id in a collection holding nothing else, and
// one password checked with the server's argon2 parameters.
// Fresh people and posts are made through the API at every size, so each size times the same
// work. Prints one JSON object: { size, samples: { request: [ms, ...] } }.
//
// Environment: API, MONGODB_URI, DB_NAME, SIZE, SAMPLES (default 25), PROFILE (optional).

import { createRequire } from 'node:module';
import * as site from '../api-reference/site.js';

const require = createRequire(new URL('../api-reference/', import.meta.url));
const argon2 = require('@node-rs/argon2');

const API = process.env.API;
const SAMPLES = Number(process.env.SAMPLES || 25);
const PASSWORD = 'Bench-password-1';
const samples = {};

async function call(method, route, body, token) {
  const res = await fetch(`${API}/api${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

// With PROFILE (the address of dbproxy.mjs's tally), the store's commands of each timed request:
// { request: { "command collection": { n, ms } } }, summed over its samples.
const PROFILE = process.env.PROFILE;
const profile = {};
const takeTally = async () => (PROFILE ? (await fetch(`${PROFILE}/take`)).json() : {});

// Calls and records the time under `name`.
async function timed(name, method, route, body, token) {
  await takeTally();
  const started = process.hrtime.bigint();
  const answer = await call(method, route, body, token);
  (samples[name] ||= []).push(Number(process.hrtime.bigint() - started) / 1e6);
  for (const [label, t] of Object.entries(await takeTally())) {
    const p = ((profile[name] ||= {})[label] ||= { n: 0, ms: 0 });
    p.n += t.n;
    p.ms += t.ms;
  }
  return answer;
}

let people = 0;
async function signup(label) {
  people += 1;
  const email = `bench-${label}-${process.env.SIZE}-${people}-${Date.now()}@bench.test`;
  const r = await call('POST', '/auth/signup', { fullName: `Bench ${label}`, email, password: PASSWORD, sendEmail: false });
  return { id: r._id, token: r.token, email };
}

const client = new site.MongoClient(process.env.MONGODB_URI);
await client.connect();
const db = client.db(process.env.DB_NAME);

// The scene: an author who sells a plan, a poll post and a subscribers-only post, readers (one
// subscribed, each commenting once so the author has notifications), other posts of the site.
const author = await signup('author');
await db.collection('users').updateOne(
  { _id: new site.ObjectId(author.id) },
  { $set: { isEligibleForSubscription: true, bypassSubscriptionCriteria: true } },
);
const plan = (await call('POST', '/subscription/plans', {
  name: 'Gold', description: 'Everything', price: 500, currency: 'usd', interval: 'month', benefits: ['All posts'],
}, author.token)).plan;
const poll = (await call('POST', '/post/post-create', {
  title: 'Which season?',
  blocks: [
    { id: 'p1', type: 'paragraph', data: { text: 'Tell us below.' } },
    { id: 'v1', type: 'poll', data: { question: 'Best?', options: [{ text: 'Spring' }, { text: 'Summer' }, { text: 'Autumn' }], multiple: false } },
  ],
}, author.token)).post;
const members = (await call('POST', '/post/post-create', {
  title: 'For members',
  audience: 'subscribers',
  blocks: [{ id: 'p1', type: 'paragraph', data: { text: 'What the subscribers read. '.repeat(10) } }],
}, author.token)).post;
const reader = await signup('reader');
await call('POST', '/subscription/subscribe', { planId: plan._id }, reader.token);
const voters = [];
for (let i = 0; i < SAMPLES; i++) voters.push(await signup('voter'));
const seedComment = (await call('POST', `/comment/add-comment/${poll._id}`, { content: 'First.' }, voters[0].token)).comment;
for (const v of voters) await call('POST', `/comment/add-comment/${poll._id}`, { content: 'Nice.' }, v.token);
const others = await db.collection('posts')
  .find({ status: 'published', visibility: 'Public', blocked: false }, { projection: { _id: 1, slug: 1 } })
  .limit(2 * SAMPLES)
  .toArray();

for (let i = 0; i < SAMPLES; i++) {
  await timed('like', 'POST', `/post/like/${poll._id}`, undefined, reader.token);
  await timed('unlike', 'POST', `/post/like/${poll._id}`, undefined, reader.token);
  await timed('bookmark', 'POST', `/post/bookmark/${poll._id}`, undefined, reader.token);
  await call('POST', `/post/bookmark/${poll._id}`, undefined, reader.token);
  await timed('view', 'POST', `/post/view/${others[i].slug}`, undefined, reader.token);
  await timed('share', 'POST', `/post/${others[SAMPLES + i]._id}/share`, undefined, reader.token);
  await timed('follow', 'POST', `/follow/${author.id}`, undefined, reader.token);
  await timed('unfollow', 'POST', `/follow/unfollow/${author.id}`, undefined, reader.token);
  await timed('vote', 'POST', '/post/vote', { postId: poll._id, blockId: 'v1', optionIndex: i % 3 }, voters[i].token);
  const c = (await timed('comment', 'POST', `/comment/add-comment/${poll._id}`, { content: `Comment ${i}` }, reader.token)).comment;
  await timed('comment edit', 'PUT', `/comment/edit/${c._id}`, { content: `Comment ${i}, edited` }, reader.token);
  await timed('comment reaction', 'POST', `/comment/reaction/${seedComment._id}`, { reactionType: 'like' }, reader.token);
  await timed('comment delete', 'DELETE', `/comment/delete/${c._id}`, undefined, reader.token);
  const session = await timed('login', 'POST', '/auth/login', { email: reader.email, password: PASSWORD });
  await timed("session's first request", 'GET', '/user/get-user', undefined, session.token);
  await timed('auth/check', 'GET', '/auth/check', undefined, reader.token);
  await timed('subscriber-only post', 'GET', `/post/${members.slug}`, undefined, reader.token);
}

const notices = (await call('GET', `/notification/notifications?limit=${SAMPLES}`, undefined, author.token)).notifications;
for (let i = 0; i < SAMPLES; i++) {
  await timed('unread count', 'GET', '/notification/unread-count', undefined, author.token);
  await timed('notification list', 'GET', '/notification/notifications', undefined, author.token);
  if (notices[i]) await timed('mark one read', 'PATCH', `/notification/mark-as-read/${notices[i]._id}`, undefined, author.token);
  await call('POST', `/post/like/${poll._id}`, undefined, voters[i].token);
  await timed('mark all read', 'PATCH', '/notification/mark-all-as-read', undefined, author.token);
}

for (let i = 0; i < SAMPLES; i++) {
  const p = (await timed('publish', 'POST', '/post/post-create', {
    title: `Bench post ${process.env.SIZE} ${i}`,
    blocks: [{ id: 'p1', type: 'paragraph', data: { text: 'Something worth reading. '.repeat(20) } }],
  }, author.token)).post;
  await timed('edit post', 'PATCH', `/post/update/${p.slug}`, {
    title: `Bench post ${process.env.SIZE} ${i}, revised`,
    blocks: [{ id: 'p1', type: 'paragraph', data: { text: 'Something worth reading again. '.repeat(20) } }],
  }, author.token);
  await timed('delete post', 'DELETE', `/post/delete/${p._id}`, undefined, author.token);
}

// The floor: a document alone in its collection, looked up and updated by _id.
const lone = client.db(`${process.env.DB_NAME}_floor`).collection('lone');
await lone.deleteMany({});
const { insertedId } = await lone.insertOne({ n: 0, title: 'alone' });
for (let i = 0; i < SAMPLES; i++) {
  let started = process.hrtime.bigint();
  await lone.findOne({ _id: insertedId });
  (samples['floor: find by _id'] ||= []).push(Number(process.hrtime.bigint() - started) / 1e6);
  started = process.hrtime.bigint();
  await lone.updateOne({ _id: insertedId }, { $inc: { n: 1 } });
  (samples['floor: update by _id'] ||= []).push(Number(process.hrtime.bigint() - started) / 1e6);
}
await client.db(`${process.env.DB_NAME}_floor`).dropDatabase();

// The floor of a sign-in: checking one password with the server's parameters (argon2id,
// m=19456 KiB, t=2, p=1, the argon2 crate's defaults) and nothing else.
const hashed = await argon2.hash(PASSWORD, { algorithm: argon2.Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 });
for (let i = 0; i < SAMPLES; i++) {
  const started = process.hrtime.bigint();
  if (!(await argon2.verify(hashed, PASSWORD))) throw new Error('argon2 did not verify its own hash');
  (samples['floor: password check'] ||= []).push(Number(process.hrtime.bigint() - started) / 1e6);
}
await client.close();
process.stdout.write(JSON.stringify({ size: Number(process.env.SIZE), samples, ...(PROFILE ? { profile } : {}) }));
