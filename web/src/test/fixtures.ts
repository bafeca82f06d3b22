/** Complete API objects for tests, so a test names only the fields it is about. */
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
