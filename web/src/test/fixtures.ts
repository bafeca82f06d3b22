/** Complete API objects for tests, so a test names only the fields it is about. */
import type { ImportItem } from '@/features/import/import-types';
import type { Post } from '@/types/entities';

/** A published public post by "Ada" (every field `PostView` requires), with `over` on top. */
export function testPost(over: Partial<Post> & Pick<Post, '_id'>): Post {
  return {
    slug: `slug-${over._id}`,
    title: `Post ${over._id}`,
    blocks: [],
    excerpt: '',
    tags: [],
    postType: 'Article',
    visibility: 'Public',
    audience: 'everyone',
    locked: false,
    isFeatured: false,
    isPinned: false,
    isPublished: true,
    language: 'en',
    status: 'published',
    blocked: false,
    likesCount: 0,
    bookmarksCount: 0,
    views: 0,
    shareCount: 0,
    commentsCount: 0,
    readingTime: 1,
    createdAt: '2024-01-01T00:00:00Z',
    updatedAt: '2024-01-01T00:00:00Z',
    author: { _id: 'u1', name: 'Ada' },
    category: null,
    ...over,
  };
}

/** An import as `GET /api/import/{id}` gives it (a WordPress export waiting in preview), with `over` on top. */
export function testImport(over: Partial<ImportItem> = {}): ImportItem {
  return {
    id: '64b000000000000000000001',
    source: 'wordpress',
    status: 'preview',
    fileName: 'export.xml',
    url: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:05.000Z',
    counts: { posts: 3, drafts: 1, scheduled: 0, pages: 1, skipped: 1, images: 2, comments: 0 },
    warnings: [],
    progress: { phase: 'parsing', done: 6, total: 6 },
    report: null,
    error: null,
    ...over,
  };
}
