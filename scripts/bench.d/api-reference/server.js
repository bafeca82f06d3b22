// The reference of `scripts/bench api`: GET /api/public/posts written the straightforward way
// with Express and the official mongodb driver — find the listable posts sorted by createdAt,
// limit 12, count them, then the page's authors and categories by $in — on the same database as
// Pressroom, answering the same shape ({posts, total, page}).
//
// Environment: PORT, MONGODB_URI, DB_NAME.

import express from 'express';
import { MongoClient } from 'mongodb';

const port = Number(process.env.PORT || 3000);
const client = new MongoClient(process.env.MONGODB_URI || 'mongodb://127.0.0.1:27017/');
await client.connect();
const db = client.db(process.env.DB_NAME || 'pressroom');
const posts = db.collection('posts');
const users = db.collection('users');
const categories = db.collection('categories');

const LISTABLE = { status: 'published', visibility: 'Public', blocked: false };

function excerpt(blocks) {
  const text = (blocks || [])
    .filter((b) => b.type !== 'code')
    .map((b) => (typeof b.data?.text === 'string' ? b.data.text.replace(/<[^>]*>/g, '') : ''))
    .join(' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
  if (text.length <= 200) return text;
  const cut = text.slice(0, 200);
  const space = cut.lastIndexOf(' ');
  return `${space > 0 ? cut.slice(0, space) : cut}…`;
}

const iso = (d) => (d instanceof Date ? d.toISOString() : null);

const app = express();

app.get('/api/public/posts', async (req, res) => {
  try {
    const limit = Math.min(Math.max(parseInt(req.query.limit, 10) || 12, 1), 50);
    const page = Math.max(parseInt(req.query.page, 10) || 1, 1);
    const [found, total] = await Promise.all([
      posts.find(LISTABLE).sort({ createdAt: -1, _id: -1 }).skip((page - 1) * limit).limit(limit).toArray(),
      posts.countDocuments(LISTABLE),
    ]);
    const authorIds = [...new Map(found.map((p) => [String(p.author), p.author])).values()];
    const categoryIds = [...new Map(found.filter((p) => p.category).map((p) => [String(p.category), p.category])).values()];
    const [authors, cats] = await Promise.all([
      users.find({ _id: { $in: authorIds } }, { projection: { name: 1, avatar: 1 } }).toArray(),
      categoryIds.length
        ? categories.find({ _id: { $in: categoryIds } }, { projection: { name: 1, slug: 1 } }).toArray()
        : [],
    ]);
    const authorById = new Map(authors.map((a) => [String(a._id), a]));
    const categoryById = new Map(cats.map((c) => [String(c._id), c]));
    res.json({
      posts: found.map((p) => {
        const a = authorById.get(String(p.author));
        const c = p.category ? categoryById.get(String(p.category)) : null;
        const { searchText, trendingScore, author, category, ...rest } = p;
        return {
          ...rest,
          _id: String(p._id),
          author: a
            ? { _id: String(a._id), name: a.name, avatar: a.avatar ?? null }
            : { _id: String(p.author), name: 'Deleted user', avatar: null },
          category: c ? { _id: String(c._id), name: c.name, slug: c.slug } : null,
          excerpt: excerpt(p.blocks),
          publishAt: iso(p.publishAt),
          publishedAt: iso(p.publishedAt),
          createdAt: iso(p.createdAt),
          updatedAt: iso(p.updatedAt),
        };
      }),
      total,
      page,
    });
  } catch (e) {
    res.status(500).json({ message: String(e) });
  }
});

app.listen(port, '127.0.0.1');
