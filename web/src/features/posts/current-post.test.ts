// The open post: a reply for a post the reader has already left must not replace the current one.
import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { guestAuth } from '@/test/render';
import { fetchPost } from './posts-slice';

const post = (slug: string) => ({ _id: `id-${slug}`, slug, title: `Post ${slug}`, blocks: [] });

describe('the current post', () => {
  it('ignores a slow reply for post A that arrives after post B', async () => {
    mockApi.on('GET', '/public/post/a', { body: { post: post('a') }, delayMs: 40 });
    mockApi.on('GET', '/public/post/b', { body: { post: post('b') } });
    const store = setupStore({ auth: guestAuth() });
    const a = store.dispatch(fetchPost({ slug: 'a' }));
    const b = store.dispatch(fetchPost({ slug: 'b' }));
    await Promise.all([a, b]);
    expect(store.getState().posts.currentPost?.slug).toBe('b');
    expect(store.getState().posts.currentStatus).toBe('succeeded');
  });

  it('ignores a late failure for post A after post B loaded', async () => {
    mockApi.on('GET', '/public/post/a', { status: 404, body: { message: 'Post not found' }, delayMs: 40 });
    mockApi.on('GET', '/public/post/b', { body: { post: post('b') } });
    const store = setupStore({ auth: guestAuth() });
    await Promise.all([store.dispatch(fetchPost({ slug: 'a' })), store.dispatch(fetchPost({ slug: 'b' }))]);
    expect(store.getState().posts.currentPost?.slug).toBe('b');
    expect(store.getState().posts.currentStatus).toBe('succeeded');
    expect(store.getState().posts.error).toBeNull();
  });
});
