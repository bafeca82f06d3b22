// Grows the store `scripts/bench writes` measures, straight into the database in the shapes
// Pressroom stores (../api-reference/site.js for users, categories and posts, as `scripts/bench
// api` seeds them): up to POSTS posts by 200 authors, 0.4 × POSTS users, 2 × POSTS likes, POSTS
// comments, POSTS notifications and 0.4 × POSTS follows, spread over the users and posts (no post
// or person holds a crowd of them). Adds only what is missing, so the same store grows from one
// size to the next. Every seeded user gets the password hash of a person signed up through the
// server's API (API), as the server computes it.
//
// Environment: MONGODB_URI, DB_NAME, POSTS, API. Prints what it added as JSON.

import * as site from '../api-reference/site.js';

const POSTS = Number(process.env.POSTS || 100);
const AUTHORS = 200;
const CATEGORIES = 20;
const TAGS = 50;
const BATCH = 2000;
const target = {
  posts: POSTS,
  users: Math.max(AUTHORS + 20, Math.round(0.4 * POSTS)),
  likes: 2 * POSTS,
  comments: POSTS,
  notifications: POSTS,
  follows: Math.round(0.4 * POSTS),
};

const client = new site.MongoClient(process.env.MONGODB_URI);
await client.connect();
const db = client.db(process.env.DB_NAME);
const now = Date.now();
const added = {};

async function fill(name, make) {
  const have = await db.collection(name).countDocuments({});
  let batch = [];
  for (let n = have; n < target[name]; n++) {
    batch.push(make(n));
    if (batch.length === BATCH) {
      await db.collection(name).insertMany(batch, { ordered: false });
      batch = [];
    }
  }
  if (batch.length) await db.collection(name).insertMany(batch, { ordered: false });
  added[name] = Math.max(0, target[name] - have);
}

const ids = async (name, filter = {}) =>
  (await db.collection(name).find(filter, { projection: { _id: 1 } }).toArray()).map((d) => d._id);

// Categories and authors once; then readers.
if ((await db.collection('categories').countDocuments({ slug: /^category-/ })) === 0) {
  await db.collection('categories').insertMany(Array.from({ length: CATEGORIES }, (_, i) => site.category(i, now)));
}
let donor = await db.collection('users').findOne({ passwordHash: { $exists: true } });
if (!donor) {
  const res = await fetch(`${process.env.API}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fullName: 'Hash Donor', email: 'donor@bench.test', password: 'Bench-password-1', sendEmail: false }),
  });
  if (!res.ok) throw new Error(`signup: ${res.status} ${await res.text()}`);
  donor = await db.collection('users').findOne({ email: 'donor@bench.test' });
}
const hash = donor.passwordHash;
await fill('users', (n) => (n < AUTHORS ? site.user('author', n, now, hash) : site.user('reader', n, now, hash)));

const authors = (await db.collection('users').find({ email: /^author-/ }).toArray()).slice(0, AUTHORS);
const categories = await db.collection('categories').find({}).toArray();
const tags = site.tagNames(TAGS);
const have = await db.collection('posts').countDocuments({});
const g = site.generator(0x9e3779b9 ^ have);
await fill('posts', (n) => {
  const { listed, ...p } = site.post(g, n, { authors, categories, tags, now });
  return p;
});

const users = await ids('users');
const posts = await ids('posts');
const U = users.length;
const P = posts.length;
// Records of the past year, none of the last day (a start recounts the posts written to in the
// last hour: those are the work of a crash, not of a store that grew).
const at = (n) => new Date(now - ((n % 365) + 1) * site.DAY);
// Mark n of a user on a post: user n mod U, and for each user distinct posts spread over the site.
const pair = (n) => [users[n % U], posts[(Math.floor(n / U) * 7919 + (n % U) * 104729) % P]];

await fill('likes', (n) => {
  const [userId, postId] = pair(n);
  return { _id: new site.ObjectId(), userId, postId, createdAt: at(n) };
});
await fill('comments', (n) => {
  const [user, post] = pair(n + 7);
  return {
    _id: new site.ObjectId(),
    post,
    content: `A thought on this, number ${n + 1}.`,
    parent: null,
    ancestors: [],
    user,
    isFlagged: false,
    blocked: false,
    edited: false,
    createdAt: at(n),
    updatedAt: at(n),
  };
});
await fill('notifications', (n) => {
  const [userId, postId] = pair(n + 13);
  const sender = users[(n * 31 + 1) % U];
  return {
    _id: new site.ObjectId(),
    userId,
    type: n % 3 === 0 ? 'comment' : 'like',
    content: 'Someone liked your post',
    read: n % 2 === 0,
    navigateTo: null,
    senderId: sender,
    senderName: 'A reader',
    senderAvatar: null,
    postId,
    postTitle: 'A post',
    replyTo: null,
    createdAt: at(n),
  };
});
await fill('follows', (n) => ({
  _id: new site.ObjectId(),
  followerId: users[n % U],
  followeeId: authors[(Math.floor(n / U) * 31 + (n % U) + 1) % authors.length]._id,
  createdAt: at(n),
}));

await client.close();
process.stdout.write(JSON.stringify({ added }));
