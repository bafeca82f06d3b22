// The shapes of a Pressroom site as it is stored, shared by the benchmarks that seed one straight
// into the database (seed.js for `scripts/bench api`, ../writes/grow.mjs for `scripts/bench
// writes`): categories, users, posts, and a small deterministic generator so every run seeds the
// same site.

import { ObjectId } from 'mongodb';

export { MongoClient, ObjectId } from 'mongodb';

export const DAY = 86_400_000;

// A xorshift generator; `random()` is in [0, 1).
export function generator(seed = 0x9e3779b9) {
  let state = seed;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const pick = (list) => list[Math.floor(random() * list.length)];
  const sentence = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  return { random, pick, sentence };
}

export const WORDS = (
  'river stone garden market letter window harbor lantern meadow engine travel kitchen ' +
  'history science music theatre winter summer coffee bicycle mountain island forest ' +
  'library season journal ocean village planet signal bridge canvas orchard festival'
).split(' ');

export function trending(p, at) {
  const points =
    3 * p.likesCount + 4 * p.commentsCount + 5 * p.shareCount + 2 * p.bookmarksCount + 0.2 * p.views;
  const hours = Math.max(at - p.createdAt.getTime(), 0) / 3_600_000;
  return (Math.max(points, 0) + 1) / Math.pow(hours + 2, 1.5);
}

export const tagNames = (n) => Array.from({ length: n }, (_, i) => `topic-${i + 1}`);

export function category(i, now) {
  return {
    _id: new ObjectId(),
    name: `Category ${i + 1}`,
    slug: `category-${i + 1}`,
    description: '',
    createdBy: null,
    createdAt: new Date(now - 400 * DAY),
    updatedAt: new Date(now - 400 * DAY),
  };
}

// A verified user; `passwordHash` when given (one hash for everyone: no one signs in as them).
export function user(label, i, now, passwordHash) {
  return {
    _id: new ObjectId(),
    name: `${label[0].toUpperCase()}${label.slice(1)} ${i + 1}`,
    email: `${label}-${i + 1}@bench.example`,
    ...(passwordHash ? { passwordHash } : {}),
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
  };
}

// Post number i (its slug ends in i + 1) by one of `authors`, created over the past year; about
// 95 % are published public posts, the rest drafts, private, unlisted, scheduled or blocked.
export function post(g, i, { authors, categories, tags, now }) {
  const { random, pick, sentence } = g;
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
  if (status === 'published') author.totalPosts = (author.totalPosts || 0) + 1;
  p.listed = status === 'published' && visibility === 'Public' && !p.blocked;
  return p;
}
