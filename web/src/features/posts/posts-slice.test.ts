// Every transition of seed 000 §4 "Posts", with the §5 rules and §8 fallback texts.
import { testPost } from '@/test/fixtures';
import { setupStore } from '@/app/store';
import { sessionUserChanged } from '@/lib/session';
import { mockApi } from '@/test/mock-api';
import { guestAuth, signedInAuth } from '@/test/render';
import type { Post } from '@/types/entities';
import {
  checkPostInput,
  createPost,
  currentPostBlockedSet,
  deletePost,
  emptyList,
  fetchPost,
  fetchPostList,
  filterKeyOf,
  filterOfKey,
  initialPostsState,
  postsReducer,
  readingStarted,
  readingStopped,
  sendAppeal,
  submitReadingTime,
  updatePost,
  type ListKey,
  type PostsState,
  itemsOf,
  postItems,
} from './posts-slice';
import { fetchSuggestedPosts, SUGGESTED_FALLBACK } from './suggested-slice';

const post = (id: string, over: Partial<Post> = {}): Post => testPost({ _id: id, slug: `slug-${id}`, title: `Post ${id}`, createdAt: `2024-01-0${id.length}T00:00:00Z`, ...over });

function withLists(lists: Partial<Record<ListKey, Post[]>>, over: Partial<PostsState> = {}): PostsState {
  const state = initialPostsState();
  for (const [key, items] of Object.entries(lists) as [ListKey, Post[]][]) {
    state.lists[key] = { ...emptyList(), items: postItems(items), total: items.length, status: 'succeeded' };
  }
  return { ...state, ...over };
}

describe('post lists', () => {
  it('append page by page with the after cursor and de-duplicate by _id', async () => {
    mockApi.on('GET', '/post/latest-post/latest', (request) =>
      request.url.searchParams.get('after')
        ? { body: { posts: [post('b'), post('c')], total: 3 } }
        : { body: { posts: [post('a'), post('b')], total: 3 } },
    );
    const store = setupStore({ auth: guestAuth() });
    await store.dispatch(fetchPostList({ list: 'latestPosts' }));
    expect(store.getState().posts.lists.latestPosts).toMatchObject({ status: 'succeeded', hasMore: true, total: 3 });
    await store.dispatch(fetchPostList({ list: 'latestPosts', more: true }));
    const calls = mockApi.calls('GET', '/post/latest-post/latest');
    expect(calls[0].url.searchParams.get('limit')).toBe('12');
    expect(calls[1].url.searchParams.get('after')).toBe(post('b').createdAt);
    expect(calls[1].url.searchParams.get('afterId')).toBe('b');
    expect(itemsOf(store.getState().posts.lists.latestPosts).map((p) => p._id)).toEqual(['a', 'b', 'c']);
    expect(store.getState().posts.lists.latestPosts.hasMore).toBe(false);
    // Nothing more to load: no request.
    await store.dispatch(fetchPostList({ list: 'latestPosts', more: true }));
    expect(mockApi.calls('GET', '/post/latest-post/latest')).toHaveLength(2);
  });

  it('the following feed pages by number, 50 at a time', async () => {
    mockApi.on('GET', '/post/following', { body: { posts: [post('a')], total: 1 } });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchPostList({ list: 'followingPosts' }));
    const url = mockApi.calls('GET', '/post/following')[0].url;
    expect([url.searchParams.get('page'), url.searchParams.get('limit')]).toEqual(['1', '50']);
  });

  it.each([
    ['followingPosts', '/post/following', 'Failed to fetch following posts'],
    ['posts', '/post/all-post', 'Failed to fetch posts'],
    ['latestPosts', '/post/latest-post/latest', 'Failed to load latest posts'],
    ['trendingPosts', '/post/trending-post/trending', 'Failed to load trending posts'],
    ['publicPosts', '/post/public/posts', 'Failed to fetch public posts'],
    ['searchPosts', '/post/search-post/search', 'Failed to load search results'],
  ] as const)('%s fails with %s when the server gives no message', async (list, path, message) => {
    mockApi.on('GET', path, { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchPostList({ list, filter: list === 'searchPosts' ? { query: 'abc' } : {} }));
    expect(store.getState().posts.lists[list]).toMatchObject({ status: 'failed', error: message });
  });

  it("the following and all-posts feeds need a signed-in user: 'You must be signed in to access this feature.'", async () => {
    const store = setupStore({ auth: guestAuth() });
    await store.dispatch(fetchPostList({ list: 'followingPosts' }));
    await store.dispatch(fetchPostList({ list: 'posts' }));
    expect(store.getState().posts.lists.followingPosts.error).toBe('You must be signed in to access this feature.');
    expect(store.getState().posts.lists.posts.error).toBe('You must be signed in to access this feature.');
  });

  it('a guest searches the public family page by page', async () => {
    mockApi.on('GET', '/public/search-posts', (request) =>
      request.url.searchParams.get('page') === '1'
        ? { body: { posts: [post('a'), post('b')], total: 3, page: 1 } }
        : { body: { posts: [post('b'), post('c')], total: 3, page: 2 } },
    );
    const store = setupStore({ auth: guestAuth() });
    await store.dispatch(fetchPostList({ list: 'searchPosts', filter: { query: 'abc' } }));
    await store.dispatch(fetchPostList({ list: 'searchPosts', filter: { query: 'abc' }, more: true }));
    expect(itemsOf(store.getState().posts.lists.searchPosts).map((p) => p._id)).toEqual(['a', 'b', 'c']);
    expect(mockApi.calls('GET', '/public/search-posts')[1].url.searchParams.get('page')).toBe('2');
  });

  it('a list starts over when its filter changes (another tag or category)', async () => {
    mockApi.on('GET', '/post/public/posts', (request) => ({ body: { posts: [post(request.url.searchParams.get('tag') ?? 'x')], total: 1 } }));
    const store = setupStore({ auth: guestAuth() });
    await store.dispatch(fetchPostList({ list: 'publicPosts', filter: { tag: 'rust' } }));
    const pending = store.dispatch(fetchPostList({ list: 'publicPosts', filter: { tag: 'go' } }));
    expect(itemsOf(store.getState().posts.lists.publicPosts)).toEqual([]);
    await pending;
    expect(itemsOf(store.getState().posts.lists.publicPosts).map((p) => p._id)).toEqual(['go']);
    expect(store.getState().posts.lists.publicPosts.filterKey).toBe(filterKeyOf({ tag: 'go' }));
  });
});

describe('writing posts', () => {
  it('creating a post puts it at the front of posts and followingPosts', async () => {
    mockApi.on('POST', '/post/post-create', { status: 201, body: { post: post('new') } });
    const store = setupStore({ auth: signedInAuth(), posts: withLists({ posts: [post('a')], followingPosts: [post('b')], latestPosts: [post('c')] }) });
    await store.dispatch(createPost({ title: 'New', blocks: [{ id: 'p', type: 'paragraph', data: { text: 'x' } }] }));
    const { lists } = store.getState().posts;
    expect(itemsOf(lists.posts).map((p) => p._id)).toEqual(['new', 'a']);
    expect(itemsOf(lists.followingPosts).map((p) => p._id)).toEqual(['new', 'b']);
    expect(itemsOf(lists.latestPosts).map((p) => p._id)).toEqual(['c']);
  });

  it("refuses empty blocks ('Blocks are required') and blob: addresses before sending anything", async () => {
    const store = setupStore({ auth: signedInAuth() });
    const empty = await store.dispatch(createPost({ title: 'x', blocks: [] }));
    expect(empty.payload).toBe('Blocks are required');
    const blob = await store.dispatch(
      createPost({ title: 'x', blocks: [{ id: 'i', type: 'image', data: { file: { url: 'blob:http://localhost/1' } } }] }),
    );
    expect(blob.payload).toBe('Upload failed: Please convert Blob URLs to base64 or upload images properly.');
    expect(checkPostInput({ blocks: [{}], thumbnail: 'blob:x' })).toBe('Upload failed: Please convert Blob URLs to base64 or upload images properly.');
    expect(mockApi.calls('POST', '/post/post-create')).toHaveLength(0);
    expect(store.getState().posts.saveError).toBe('Upload failed: Please convert Blob URLs to base64 or upload images properly.');
  });

  it("a failed create keeps the server's message ('Failed to create post' without one)", async () => {
    mockApi.on('POST', '/post/post-create', { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(createPost({ title: 'x', blocks: [{}] }));
    expect(store.getState().posts.saveError).toBe('Failed to create post');
  });

  it('updating merges by slug into every list and into currentPost, and sets updateSuccess', async () => {
    mockApi.on('PATCH', '/post/update/slug-a', { body: { message: 'Post updated', post: post('a', { title: 'Renamed' }) } });
    const store = setupStore({
      auth: signedInAuth(),
      posts: withLists({ latestPosts: [post('a'), post('b')], posts: [post('a')] }, { currentPost: post('a') }),
    });
    await store.dispatch(updatePost({ slug: 'slug-a', changes: { title: 'Renamed' } }));
    const state = store.getState().posts;
    expect(state.updateSuccess).toBe(true);
    expect(itemsOf(state.lists.latestPosts).map((p) => p.title)).toEqual(['Renamed', 'Post b']);
    expect(itemsOf(state.lists.posts)[0].title).toBe('Renamed');
    expect(state.currentPost?.title).toBe('Renamed');
  });

  it("a failed update says 'Failed to update post'", async () => {
    mockApi.on('PATCH', '/post/update/slug-a', { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(updatePost({ slug: 'slug-a', changes: { title: 'x' } }));
    expect(store.getState().posts).toMatchObject({ saveError: 'Failed to update post', updateSuccess: false });
  });

  it('deleting removes it from all lists and clears currentPost if it matches', async () => {
    mockApi.on('DELETE', '/post/delete/a', { body: { message: 'Post deleted' } });
    const store = setupStore({
      auth: signedInAuth(),
      posts: withLists({ latestPosts: [post('a'), post('b')], followingPosts: [post('a')], searchPosts: [post('a')] }, { currentPost: post('a') }),
    });
    await store.dispatch(deletePost('a'));
    const state = store.getState().posts;
    expect(state.currentPost).toBeNull();
    expect(itemsOf(state.lists.latestPosts).map((p) => p._id)).toEqual(['b']);
    expect(itemsOf(state.lists.followingPosts)).toEqual([]);
    expect(itemsOf(state.lists.searchPosts)).toEqual([]);
  });

  it("a failed delete says 'Failed to delete post' and keeps the post", async () => {
    mockApi.on('DELETE', '/post/delete/a', { status: 500 });
    const store = setupStore({ auth: signedInAuth(), posts: withLists({ latestPosts: [post('a')] }) });
    await store.dispatch(deletePost('a'));
    expect(store.getState().posts.error).toBe('Failed to delete post');
    expect(itemsOf(store.getState().posts.lists.latestPosts)).toHaveLength(1);
  });
});

describe('the open post', () => {
  it("a failed single-post fetch clears currentPost ('Post not found' from the server)", async () => {
    mockApi.on('GET', '/post/gone', { status: 404, body: { message: 'Post not found', code: 'not_found' } });
    const store = setupStore({ auth: signedInAuth(), posts: { ...initialPostsState(), currentPost: post('a') } });
    await store.dispatch(fetchPost({ slug: 'gone' }));
    expect(store.getState().posts).toMatchObject({ currentPost: null, currentStatus: 'failed', error: 'Post not found' });
  });

  it("a signed-in reader reads /post/{slug}, a guest /public/post/{slug}; an empty slug is 'Invalid post slug'", async () => {
    mockApi.on('GET', '/post/a', { body: { post: post('a') } });
    mockApi.on('GET', '/public/post/a', { body: { post: post('a') } });
    await setupStore({ auth: signedInAuth() }).dispatch(fetchPost({ slug: 'a' }));
    await setupStore({ auth: guestAuth() }).dispatch(fetchPost({ slug: 'a' }));
    expect(mockApi.calls('GET', '/post/a')).toHaveLength(1);
    expect(mockApi.calls('GET', '/public/post/a')).toHaveLength(1);
    const store = setupStore({ auth: guestAuth() });
    await store.dispatch(fetchPost({ slug: ' ' }));
    expect(store.getState().posts.error).toBe('Invalid post slug');
  });

  it("an answer without a post is 'Post not found'", async () => {
    mockApi.on('GET', '/public/post/a', { body: {} });
    const store = setupStore({ auth: guestAuth() });
    await store.dispatch(fetchPost({ slug: 'a' }));
    expect(store.getState().posts.error).toBe('Post not found');
  });

  it('the blocked flag of currentPost can be set locally', () => {
    const state = postsReducer({ ...initialPostsState(), currentPost: post('a') }, currentPostBlockedSet(true));
    expect(state.currentPost?.blocked).toBe(true);
  });
});

describe('reading tracking', () => {
  it('start sets isTracking with postId and time; stop clears them', () => {
    let state = postsReducer(initialPostsState(), readingStarted({ postId: 'a', at: 1000 }));
    expect(state.tracking).toEqual({ postId: 'a', startTime: 1000, isTracking: true });
    state = postsReducer(state, readingStopped());
    expect(state.tracking).toEqual({ postId: null, startTime: null, isTracking: false });
  });

  it('a successful time submission clears them; the seconds go with keepalive', async () => {
    const fetchSpy = vi.fn(mockApi.fetch);
    vi.stubGlobal('fetch', fetchSpy);
    mockApi.on('POST', '/post/time-spent/a', { body: { message: 'ok', duration: 42, updatedAt: '2024-01-01T00:00:00Z' } });
    const store = setupStore({ auth: signedInAuth() });
    store.dispatch(readingStarted({ postId: 'a', at: 1 }));
    await store.dispatch(submitReadingTime({ postId: 'a', seconds: 12.4 }));
    expect(store.getState().posts.tracking.isTracking).toBe(false);
    expect(mockApi.calls('POST', '/post/time-spent/a')[0].body).toEqual({ duration: 12 });
    expect((fetchSpy.mock.calls[0][1] as RequestInit).keepalive).toBe(true);
    expect(store.getState().interactions.byPost.a.timeSpent).toEqual({ duration: 42, updatedAt: '2024-01-01T00:00:00Z' });
  });

  it("postId must be a string ('Invalid postId'); a failure says 'Failed to submit reading time'", async () => {
    mockApi.on('POST', '/post/time-spent/a', { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    expect((await store.dispatch(submitReadingTime({ postId: 7, seconds: 3 }))).payload).toBe('Invalid postId');
    expect((await store.dispatch(submitReadingTime({ postId: 'a', seconds: 3 }))).payload).toBe('Failed to submit reading time');
  });
});

describe('appeals and suggestions', () => {
  it("an appeal failure says 'Failed to send appeal'", async () => {
    mockApi.on('POST', '/post/appeal/a', { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    expect((await store.dispatch(sendAppeal({ postId: 'a', message: 'Please' }))).payload).toBe('Failed to send appeal');
  });

  it('suggested posts: limit 4, same category, this one excluded; idle → loading → succeeded', async () => {
    mockApi.on('GET', '/post/suggested-post/suggested', { body: { posts: [post('a'), post('b'), post('c'), post('d'), post('e')] } });
    const store = setupStore({ auth: guestAuth() });
    expect(store.getState().suggested.status).toBe('idle');
    const pending = store.dispatch(fetchSuggestedPosts({ postId: 'a', category: 'cat1' }));
    expect(store.getState().suggested.status).toBe('loading');
    await pending;
    const q = mockApi.calls('GET', '/post/suggested-post/suggested')[0].url.searchParams;
    expect([q.get('limit'), q.get('category'), q.get('exclude')]).toEqual(['4', 'cat1', 'a']);
    expect(store.getState().suggested.posts.map((p) => p._id)).toEqual(['b', 'c', 'd', 'e']);
    expect(store.getState().suggested.status).toBe('succeeded');
  });

  it("suggested posts fail with 'Failed to fetch suggested posts'", async () => {
    mockApi.on('GET', '/post/suggested-post/suggested', { status: 500 });
    const store = setupStore({ auth: guestAuth() });
    await store.dispatch(fetchSuggestedPosts({ postId: 'a' }));
    expect(store.getState().suggested).toMatchObject({ status: 'failed', error: SUGGESTED_FALLBACK });
  });
});

describe('a change of user', () => {
  it('drops the lists, the open post and the own and following counts', () => {
    const state = postsReducer(
      withLists({ posts: [post('a')], latestPosts: [post('b')] }, { currentPost: post('a'), counts: { allPostsCount: 9, myPostsCount: 2, followingPostsCount: 3 } }),
      sessionUserChanged({ previousUserId: 'u1', userId: null }),
    );
    expect(itemsOf(state.lists.posts)).toEqual([]);
    expect(itemsOf(state.lists.latestPosts)).toEqual([]);
    expect(state.currentPost).toBeNull();
    expect(state.counts).toEqual({ allPostsCount: 9, myPostsCount: 0, followingPostsCount: 0 });
  });
});

describe("an author's posts (userPosts)", () => {
  const mine = (id: string, status = 'published') => ({ _id: id, slug: id, title: id, status, createdAt: `2024-05-0${id.slice(1)}T00:00:00Z` });

  it('reads /post/user/{userId}/posts with search, sort and the after cursor', async () => {
    mockApi.on('GET', '/post/user/u7/posts', (req) =>
      req.url.searchParams.get('after')
        ? { body: { posts: [mine('p1')], total: 3 } }
        : { body: { posts: [mine('p3', 'draft'), mine('p2', 'scheduled')], total: 3 } },
    );
    const store = setupStore({ auth: signedInAuth() });
    const filter = { userId: 'u7', query: 'rust', sort: 'oldest' as const };
    await store.dispatch(fetchPostList({ list: 'userPosts', filter }));
    await store.dispatch(fetchPostList({ list: 'userPosts', filter, more: true }));
    const [first, second] = mockApi.calls('GET', '/post/user/u7/posts').map((c) => c.url.searchParams);
    expect([first.get('search'), first.get('sort'), first.get('limit'), first.get('after')]).toEqual(['rust', 'oldest', '12', null]);
    expect([second.get('after'), second.get('afterId')]).toEqual(['2024-05-02T00:00:00Z', 'p2']);
    const list = store.getState().posts.lists.userPosts;
    expect(itemsOf(list).map((p) => p._id)).toEqual(['p3', 'p2', 'p1']);
    expect(list.hasMore).toBe(false);
  });

  it("a failure says 'Failed to fetch user posts'", async () => {
    mockApi.on('GET', '/post/user/u7/posts', { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchPostList({ list: 'userPosts', filter: { userId: 'u7' } }));
    expect(store.getState().posts.lists.userPosts).toMatchObject({ status: 'failed', error: 'Failed to fetch user posts' });
  });

  it('another sort starts the list over', async () => {
    mockApi.on('GET', '/post/user/u7/posts', { body: { posts: [mine('p1')], total: 1 } });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchPostList({ list: 'userPosts', filter: { userId: 'u7', sort: 'newest' } }));
    const pending = store.dispatch(fetchPostList({ list: 'userPosts', filter: { userId: 'u7', sort: 'popular' } }));
    expect(itemsOf(store.getState().posts.lists.userPosts)).toEqual([]);
    await pending;
    expect(filterOfKey(store.getState().posts.lists.userPosts.filterKey)).toEqual({ userId: 'u7', sort: 'popular' });
  });
});
