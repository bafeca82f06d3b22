// Seed 001 §3 "Post interaction state", §4 "Other" and the §8 engagement fallbacks.
import { testPost } from '@/test/fixtures';
import { setupStore } from '@/app/store';
import { deletePost, fetchPost } from '@/features/posts';
import { currentToasts } from '@/lib/toast';
import { mockApi } from '@/test/mock-api';
import { guestAuth, signedInAuth } from '@/test/render';
import type { Post } from '@/types/entities';
import {
  fetchBookmarkedPosts,
  fetchInteractionStatus,
  interactionsReducer,
  initialInteractionsState,
  sharePost,
  toggleBookmark,
  toggleLike,
  trackView,
  votePoll,
} from './interactions-slice';

const poll = { id: 'v1', type: 'poll', data: { question: 'Best?', options: [{ text: 'A', votes: 2 }, { text: 'B', votes: 1 }], multiple: false, closesAt: null } };
const post: Post = testPost({ _id: 'p1', slug: 'hello', title: 'Hello', likesCount: 3, bookmarksCount: 1, shareCount: 2, views: 10, blocks: [poll] });

async function storeWithPost(auth = signedInAuth()) {
  mockApi.on('GET', '/post/hello', { body: { post } });
  mockApi.on('GET', '/public/post/hello', { body: { post } });
  const store = setupStore({ auth });
  await store.dispatch(fetchPost({ slug: 'hello' }));
  return store;
}

const toasts = () => currentToasts().map((t) => t.message);

describe('interactions', () => {
  it('a post read from the server brings its counts, views and polls', async () => {
    const store = await storeWithPost();
    const { byPost, views, polls } = store.getState().interactions;
    expect(byPost.p1).toMatchObject({ likes: { likesCount: 3, liked: false }, bookmarks: { bookmarksCount: 1, bookmarked: false }, shares: { shareCount: 2 } });
    expect(views.hello).toEqual({ views: 10 });
    expect(polls.p1.v1).toMatchObject({ question: 'Best?', totalVotes: 3, userVote: null, closed: false });
  });

  it('status (liked, bookmarked) is fetched for signed-in readers and skipped for guests', async () => {
    mockApi.on('GET', '/post/bookmark-status/p1', { body: { liked: true, bookmarked: false, likesCount: 4, bookmarksCount: 1 } });
    const store = await storeWithPost();
    await store.dispatch(fetchInteractionStatus('p1'));
    expect(store.getState().interactions.byPost.p1.likes).toEqual({ liked: true, likesCount: 4 });
    const guest = await storeWithPost(guestAuth());
    await guest.dispatch(fetchInteractionStatus('p1'));
    expect(mockApi.calls('GET', '/post/bookmark-status/p1')).toHaveLength(1);
  });

  it("a failed status fetch says 'Failed to fetch status'", async () => {
    mockApi.on('GET', '/post/bookmark-status/p1', { status: 500 });
    const store = await storeWithPost();
    await store.dispatch(fetchInteractionStatus('p1'));
    expect(store.getState().interactions.byPost.p1.error).toBe('Failed to fetch status');
  });

  it('a like shows at once, takes the server counts, and shows in every copy of the post', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    mockApi.on('POST', '/post/like/p1', async () => {
      await gate;
      return { body: { liked: true, likesCount: 7 } };
    });
    const store = await storeWithPost();
    const pending = store.dispatch(toggleLike({ postId: 'p1' }));
    expect(store.getState().interactions.byPost.p1.likes).toEqual({ liked: true, likesCount: 4 });
    // A second click while the first is on its way does nothing.
    await store.dispatch(toggleLike({ postId: 'p1' }));
    release();
    await pending;
    expect(mockApi.calls('POST', '/post/like/p1')).toHaveLength(1);
    expect(store.getState().interactions.byPost.p1.likes).toEqual({ liked: true, likesCount: 7 });
    expect(store.getState().posts.currentPost?.likesCount).toBe(7);
  });

  it("a failed like is rolled back with 'Like failed'", async () => {
    mockApi.on('POST', '/post/like/p1', { status: 500 });
    const store = await storeWithPost();
    await store.dispatch(toggleLike({ postId: 'p1' }));
    expect(store.getState().interactions.byPost.p1.likes).toEqual({ liked: false, likesCount: 3 });
    expect(store.getState().interactions.byPost.p1.error).toBe('Like failed');
    expect(toasts()).toContain('Like failed');
  });

  it('a bookmark adds the post to the bookmarked list; taking it back removes it', async () => {
    mockApi.on('POST', '/post/bookmark/p1', { body: { bookmarked: true, bookmarksCount: 2 } });
    const store = await storeWithPost();
    await store.dispatch(toggleBookmark({ postId: 'p1', post }));
    expect(store.getState().interactions.bookmarkedPosts.map((p) => p._id)).toEqual(['p1']);
    expect(store.getState().interactions.byPost.p1.bookmarks).toEqual({ bookmarked: true, bookmarksCount: 2 });
    mockApi.on('POST', '/post/bookmark/p1', { body: { bookmarked: false, bookmarksCount: 1 } });
    await store.dispatch(toggleBookmark({ postId: 'p1', post }));
    expect(store.getState().interactions.bookmarkedPosts).toEqual([]);
  });

  it("a failed bookmark is rolled back with 'Bookmark failed'", async () => {
    mockApi.on('POST', '/post/bookmark/p1', { status: 503 });
    const store = await storeWithPost();
    await store.dispatch(toggleBookmark({ postId: 'p1', post }));
    expect(store.getState().interactions.byPost.p1.bookmarks).toEqual({ bookmarked: false, bookmarksCount: 1 });
    expect(store.getState().interactions.bookmarkedPosts).toEqual([]);
    expect(toasts()).toContain('Bookmark failed');
  });

  it('views: signed-in readers through /post/view, guests through the public family with their guest id', async () => {
    mockApi.on('POST', '/post/view/hello', { body: { views: 11 } });
    mockApi.on('POST', '/public/post/hello/view', { body: { message: 'View counted', views: 12 } });
    const store = await storeWithPost();
    await store.dispatch(trackView({ slug: 'hello' }));
    expect(store.getState().interactions.views.hello).toEqual({ views: 11 });
    localStorage.setItem('guestId', 'guest-1');
    const guest = await storeWithPost(guestAuth());
    await guest.dispatch(trackView({ slug: 'hello' }));
    expect(mockApi.calls('POST', '/public/post/hello/view')[0].body).toEqual({ guestId: 'guest-1' });
    expect(guest.getState().interactions.views.hello).toEqual({ views: 12 });
  });

  it("view failures: 'View count failed' signed in, 'Failed to track view' as a guest", async () => {
    mockApi.on('POST', '/post/view/hello', { status: 500 });
    mockApi.on('POST', '/public/post/hello/view', { status: 500 });
    expect((await (await storeWithPost()).dispatch(trackView({ slug: 'hello' }))).payload).toBe('View count failed');
    expect((await (await storeWithPost(guestAuth())).dispatch(trackView({ slug: 'hello' }))).payload).toBe('Failed to track view');
  });

  it("a share counts; a failed one says 'Failed to increment share count'", async () => {
    mockApi.on('POST', '/post/p1/share', { body: { shareCount: 3 } });
    const store = await storeWithPost();
    await store.dispatch(sharePost({ postId: 'p1' }));
    expect(store.getState().interactions.byPost.p1.shares).toEqual({ shareCount: 3 });
    mockApi.on('POST', '/post/p1/share', { status: 500 });
    await store.dispatch(sharePost({ postId: 'p1' }));
    expect(toasts()).toContain('Failed to increment share count');
  });

  it('a vote applies the poll of the answer, keyed by postId and blockId, with the choice marked', async () => {
    mockApi.on('POST', '/post/vote', {
      body: { poll: { postId: 'p1', blockId: 'v1', question: 'Best?', options: [{ text: 'A', votes: 2 }, { text: 'B', votes: 2 }], multiple: false, closesAt: null, closed: false, totalVotes: 4, userVote: 1, userVotes: [1] } },
    });
    const store = await storeWithPost();
    await store.dispatch(votePoll({ postId: 'p1', blockId: 'v1', optionIndex: 1 }));
    expect(mockApi.calls('POST', '/post/vote')[0].body).toEqual({ postId: 'p1', blockId: 'v1', optionIndex: 1 });
    expect(store.getState().interactions.polls.p1.v1).toMatchObject({ totalVotes: 4, userVote: 1, userVotes: [1], voting: false });
  });

  it("a failed vote says 'Vote failed' (or the server's 'This poll is closed')", async () => {
    mockApi.on('POST', '/post/vote', { status: 500 });
    const store = await storeWithPost();
    await store.dispatch(votePoll({ postId: 'p1', blockId: 'v1', optionIndex: 0 }));
    expect(store.getState().interactions.polls.p1.v1.error).toBe('Vote failed');
    mockApi.on('POST', '/post/vote', { status: 409, body: { message: 'This poll is closed', code: 'conflict' } });
    await store.dispatch(votePoll({ postId: 'p1', blockId: 'v1', optionIndex: 0 }));
    expect(store.getState().interactions.polls.p1.v1.error).toBe('This poll is closed');
  });

  it("bookmarked posts are fetched; a failure says 'Failed to fetch bookmarked posts'", async () => {
    mockApi.on('GET', '/post/get-post/bookmarks', { body: { posts: [post] } });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchBookmarkedPosts());
    expect(store.getState().interactions.bookmarkedPosts.map((p) => p._id)).toEqual(['p1']);
    expect(store.getState().interactions.byPost.p1.bookmarks.bookmarked).toBe(true);
    mockApi.on('GET', '/post/get-post/bookmarks', { status: 500 });
    await store.dispatch(fetchBookmarkedPosts());
    expect(store.getState().interactions).toMatchObject({ bookmarkedStatus: 'failed', bookmarkedError: 'Failed to fetch bookmarked posts' });
  });

  it("a deleted post leaves the interactions and the bookmarked list", () => {
    const start = { ...initialInteractionsState, bookmarkedPosts: [post], polls: { p1: {} } };
    const state = interactionsReducer(start, { type: deletePost.fulfilled.type, payload: 'p1' });
    expect(state.bookmarkedPosts).toEqual([]);
    expect(state.polls.p1).toBeUndefined();
  });

  it("a poll's reader choice comes with the post (userVote) and stays after a re-read", async () => {
    const voted = { ...post, blocks: [{ ...poll, data: { ...poll.data, userVote: 0, userVotes: [0] } }] };
    mockApi.on('GET', '/post/hello', { body: { post: voted } });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchPost({ slug: 'hello' }));
    expect(store.getState().interactions.polls.p1.v1).toMatchObject({ userVote: 0, userVotes: [0] });
  });
});
