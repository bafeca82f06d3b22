// Seeds the site `scripts/bench web` measures, straight into the database as Pressroom stores it
// (the same shapes as scripts/bench.d/api-reference/seed.js): two categories, one author with a
// short bio and ten published public posts of about 700 words, each with a cover image
// (thumbnail) and an image block in its body, plus twenty posts of a second author so the home
// page's lists are full. The images are files the bench made in the server's media directory
// (MEDIA_FILES: their names, space-separated, one per post, used in turn; 1600x900 JPEGs whose
// resized variants the bench made with `pressroom media variants`). Each post records its
// pictures' size and variants as the server records an upload when a post is saved
// (`thumbnailImage`, and `width`/`height`/`variants` in an image block's `file`), so the app draws
// the same `srcset` as the server's page. Prints the paths the benchmark opens as JSON:
// { post, author }.
//
// Environment: MONGODB_URI, DB_NAME, MEDIA_FILES.

import { MongoClient, ObjectId } from 'mongodb';

const DAY = 86_400_000;
const media = (process.env.MEDIA_FILES || '').split(/\s+/).filter(Boolean);
if (media.length === 0) throw new Error('MEDIA_FILES names no image');

let state = 0x2545f491;
function random() {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(random() * list.length)];
const WORDS = (
  'the a of and to in river stone garden market letter window harbor lantern meadow engine travel ' +
  'kitchen history science music theatre winter summer coffee bicycle mountain island forest library ' +
  'season journal ocean village planet signal bridge canvas orchard festival quietly morning evening'
).split(' ');
const sentence = (n) => {
  const s = Array.from({ length: n }, () => pick(WORDS)).join(' ');
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
};
// The size and variants the server records for a 1600x900 JPEG upload (src/domain/image_variants.rs:
// 400 and 800 px wide in JPEG and WebP, the full size in WebP; narrowest first).
const IMAGE_W = 1600;
const IMAGE_H = 900;
function imageMeta(src) {
  const base = src.replace(/\.jpg$/, '');
  const variant = (width, ext) => ({
    src: `${base}-${width}.${ext}`,
    width,
    height: Math.max(1, Math.round((IMAGE_H * width) / IMAGE_W)),
    type: ext === 'webp' ? 'image/webp' : 'image/jpeg',
  });
  const variants = [variant(400, 'jpg'), variant(400, 'webp'), variant(800, 'jpg'), variant(800, 'webp'), variant(1600, 'webp')];
  return { src, width: IMAGE_W, height: IMAGE_H, type: 'image/jpeg', variants };
}
const paragraph = () => Array.from({ length: 5 }, () => sentence(12 + Math.floor(random() * 8))).join(' ');

const client = new MongoClient(process.env.MONGODB_URI || 'mongodb://127.0.0.1:27017/');
await client.connect();
const db = client.db(process.env.DB_NAME || 'pressroom');
const now = Date.now();

const categories = ['Travel', 'Science'].map((name) => ({
  _id: new ObjectId(),
  name,
  slug: name.toLowerCase(),
  description: '',
  createdBy: null,
  createdAt: new Date(now - 400 * DAY),
  updatedAt: new Date(now - 400 * DAY),
}));
await db.collection('categories').insertMany(categories);

const author = (name, i, totalPosts) => ({
  _id: new ObjectId(),
  name,
  email: `writer-${i}@bench.example`,
  bio: 'Writes about rivers, harbours and the people who live beside them.',
  role: 'user',
  blocked: false,
  isAccountVerified: true,
  avatar: null,
  tokenVersion: 0,
  totalPosts,
  isEligibleForSubscription: false,
  bypassSubscriptionCriteria: false,
  milestoneOverride: { followerCount: null, postCount: null, engagementRate: null, accountAgeDays: null },
  dailyPostOptOut: true,
  createdAt: new Date(now - 400 * DAY),
  updatedAt: new Date(now - 400 * DAY),
});
const writer = author('Ada Riverside', 1, 10);
const other = author('Ben Harbour', 2, 20);
await db.collection('users').insertMany([writer, other]);

const posts = [];
let n = 0;
for (const [who, count] of [[writer, 10], [other, 20]]) {
  for (let i = 0; i < count; i++, n++) {
    const image = `/media/${media[n % media.length]}`;
    const title = `${sentence(5).slice(0, -1)} ${n + 1}`;
    const blocks = [
      { id: 'p0', type: 'paragraph', data: { text: paragraph() } },
      { id: 'p1', type: 'paragraph', data: { text: `${paragraph()} <b>${sentence(4)}</b> <a href="https://example.com/">${sentence(3)}</a>` } },
      { id: 'h1', type: 'header', data: { text: sentence(4).slice(0, -1), level: 2 } },
      { id: 'p2', type: 'paragraph', data: { text: paragraph() } },
      { id: 'i1', type: 'image', data: { file: { url: image, width: IMAGE_W, height: IMAGE_H, variants: imageMeta(image).variants }, caption: sentence(6), withBorder: false, stretched: false, withBackground: false } },
      { id: 'p3', type: 'paragraph', data: { text: paragraph() } },
      { id: 'h2', type: 'header', data: { text: sentence(3).slice(0, -1), level: 2 } },
      { id: 'p4', type: 'paragraph', data: { text: paragraph() } },
      { id: 'p5', type: 'paragraph', data: { text: paragraph() } },
      { id: 'p6', type: 'paragraph', data: { text: paragraph() } },
    ];
    const createdAt = new Date(now - (n + 1) * DAY);
    const text = blocks.map((b) => b.data.text ?? '').join(' ');
    const p = {
      _id: new ObjectId(),
      slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''),
      title,
      blocks,
      thumbnail: `/media/${media[(n + 1) % media.length]}`,
      thumbnailImage: imageMeta(`/media/${media[(n + 1) % media.length]}`),
      author: who._id,
      category: categories[n % 2]._id,
      tags: ['rivers', n % 2 ? 'harbours' : 'maps'],
      postType: 'Article',
      visibility: 'Public',
      isFeatured: false,
      isPinned: false,
      isPublished: true,
      language: 'en',
      status: 'published',
      publishAt: null,
      publishedAt: createdAt,
      blocked: false,
      likesCount: Math.floor(random() * 50),
      bookmarksCount: Math.floor(random() * 10),
      views: Math.floor(random() * 500),
      shareCount: Math.floor(random() * 5),
      commentsCount: 0,
      readingTime: Math.max(1, Math.round(text.split(/\s+/).length / 200)),
      createdAt,
      updatedAt: createdAt,
    };
    p.searchText = `${title} ${p.tags.join(' ')} ${text}`.toLowerCase();
    p.trendingScore = (p.likesCount + 1) / Math.pow((now - createdAt.getTime()) / 3_600_000 + 2, 1.5);
    posts.push(p);
  }
}
await db.collection('posts').insertMany(posts);
await client.close();
process.stdout.write(JSON.stringify({ post: `/post/${posts[0].slug}`, author: `/author-profile/${writer._id}` }));
