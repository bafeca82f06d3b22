// Seeds a site for `scripts/bench api` straight into the database (no API calls, so it takes
// seconds): 200 authors, 20 categories, 50 tags and POSTS posts shaped as Pressroom stores them
// (site.js), created over the past year; about 95 % are published public posts, the rest drafts,
// private, unlisted, scheduled or blocked, so filters matter. Prints the paths the benchmark reads
// (some slugs, tags, category slugs, author ids and search words) as JSON on stdout.
//
// Environment: MONGODB_URI, DB_NAME, POSTS.

import { MongoClient } from 'mongodb';
import * as site from './site.js';

const POSTS = Number(process.env.POSTS || 10000);
const AUTHORS = 200;
const CATEGORIES = 20;
const TAGS = 50;
const BATCH = 1000;

const g = site.generator();
const client = new MongoClient(process.env.MONGODB_URI || 'mongodb://127.0.0.1:27017/');
await client.connect();
const db = client.db(process.env.DB_NAME || 'pressroom');
const now = Date.now();

const tags = site.tagNames(TAGS);
const categories = Array.from({ length: CATEGORIES }, (_, i) => site.category(i, now));
const authors = Array.from({ length: AUTHORS }, (_, i) => site.user('author', i, now));
await db.collection('categories').insertMany(categories);

const slugs = [];
let batch = [];
for (let i = 0; i < POSTS; i++) {
  const { listed, ...p } = site.post(g, i, { authors, categories, tags, now });
  if (listed && slugs.length < 2000) slugs.push(p.slug);
  batch.push(p);
  if (batch.length === BATCH) {
    await db.collection('posts').insertMany(batch, { ordered: false });
    batch = [];
  }
}
if (batch.length) await db.collection('posts').insertMany(batch, { ordered: false });
await db.collection('users').insertMany(authors);
await client.close();

process.stdout.write(
  JSON.stringify({
    slugs,
    tags,
    categories: categories.map((c) => c.slug),
    authors: authors.map((a) => String(a._id)),
    words: site.WORDS,
  }),
);
