// Seeds a site for `scripts/bench api` straight into the database (no API calls, so it takes
// seconds): 200 authors, 20 categories, 50 tags and POSTS posts shaped as Pressroom stores them,
// created over the past year; about 95 % are published public posts, the rest drafts, private,
// unlisted, scheduled or blocked, so filters matter. Prints the paths the benchmark reads (some
// slugs, tags, category slugs, author ids and search words) as JSON on stdout.
//
// Environment: MONGODB_URI, DB_NAME, POSTS.

import { MongoClient, ObjectId } from 'mongodb';

const POSTS = Number(process.env.POSTS || 10000);
const AUTHORS = 200;
const CATEGORIES = 20;
const TAGS = 50;
const BATCH = 1000;
const DAY = 86_400_000;

// A small deterministic generator, so every run seeds the same site.
let state = 0x9e3779b9;
function random() {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(random() * list.length)];

const WORDS = (
  'river stone garden market letter window harbor lantern meadow engine travel kitchen ' +
  'history science music theatre winter summer coffee bicycle mountain island forest ' +
  'library season journal ocean village planet signal bridge canvas orchard festival'
).split(' ');
const sentence = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');

function trending(p, at) {
  const points =
    3 * p.likesCount + 4 * p.commentsCount + 5 * p.shareCount + 2 * p.bookmarksCount + 0.2 * p.views;
  const hours = Math.max(at - p.createdAt.getTime(), 0) / 3_600_000;
  return (Math.max(points, 0) + 1) / Math.pow(hours + 2, 1.5);
}

const client = new MongoClient(process.env.MONGODB_URI || 'mongodb://127.0.0.1:27017/');
await client.connect();
const db = client.db(process.env.DB_NAME || 'pressroom');
const now = Date.now();

const tags = Array.from({ length: TAGS }, (_, i) => `topic-${i + 1}`);
const categories = Array.from({ length: CATEGORIES }, (_, i) => ({
  _id: new ObjectId(),
  name: `Category ${i + 1}`,
  slug: `category-${i + 1}`,
  description: '',
  createdBy: null,
  createdAt: new Date(now - 400 * DAY),
  updatedAt: new Date(now - 400 * DAY),
}));
const authors = Array.from({ length: AUTHORS }, (_, i) => ({
  _id: new ObjectId(),
  name: `Author ${i + 1}`,
  email: `author-${i + 1}@bench.example`,
  role: 'user',
  blocked: false,
  isAccountVerified: true,
  avatar: null,
  tokenVersion: 0,
  totalPosts: 0,
  isEligibleForSubscription: false,
  bypassSubscriptionCriteria: false,
  milestoneOverride: { followerCount: null, postCount: null, engagementRate: null, accountAgeDays: null },
  dailyPostOptOut: true,
  createdAt: new Date(now - 400 * DAY),
  updatedAt: new Date(now - 400 * DAY),
}));
await db.collection('categories').insertMany(categories);

const slugs = [];
let batch = [];
for (let i = 0; i < POSTS; i++) {
  const author = pick(authors);
  const createdAt = new Date(now - Math.floor(random() * 365 * DAY));
  const roll = random();
  const status = roll < 0.02 ? 'draft' : roll < 0.025 ? 'scheduled' : 'published';
  const visibility = roll > 0.98 ? 'Private' : roll > 0.965 ? 'Unlisted' : 'Public';
  const title = `${sentence(3)} ${i + 1}`;
  const postTags = [pick(tags), pick(tags)].filter((t, k, all) => all.indexOf(t) === k);
  const text = `${sentence(40)}. ${sentence(30)}.`;
  const slug = `${title.replace(/\s+/g, '-')}`;
  const p = {
    _id: new ObjectId(),
    slug,
    title,
    blocks: [
      { id: 'h1', type: 'header', data: { text: sentence(4), level: 2 } },
      { id: 'p1', type: 'paragraph', data: { text } },
    ],
    thumbnail: null,
    author: author._id,
    category: random() < 0.9 ? pick(categories)._id : null,
    tags: postTags,
    postType: 'Article',
    visibility,
    isFeatured: false,
    isPinned: false,
    isPublished: status === 'published',
    language: 'en',
    status,
    publishAt: status === 'scheduled' ? new Date(now + 30 * DAY) : null,
    publishedAt: status === 'published' ? createdAt : null,
    blocked: random() < 0.01,
    likesCount: Math.floor(random() * 50),
    bookmarksCount: Math.floor(random() * 10),
    views: Math.floor(random() * 500),
    shareCount: Math.floor(random() * 5),
    commentsCount: Math.floor(random() * 8),
    readingTime: 1,
    createdAt,
    updatedAt: createdAt,
  };
  p.searchText = `${title} ${postTags.join(' ')} ${p.blocks[0].data.text} ${text}`.toLowerCase();
  p.trendingScore = trending(p, now);
  if (status === 'published') author.totalPosts += 1;
  if (status === 'published' && visibility === 'Public' && !p.blocked && slugs.length < 2000) slugs.push(slug);
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
    words: WORDS,
  }),
);
