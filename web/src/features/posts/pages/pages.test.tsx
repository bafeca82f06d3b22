import { act, screen, waitFor, within } from '@testing-library/react';
import { testPost } from '@/test/fixtures';
import userEvent from '@testing-library/user-event';
import { lastFakeSocket } from '@/test/fake-socket';
import { mockApi, type MockReply } from '@/test/mock-api';
import { guestAuth, mockAppStartup, mockNoTips, renderApp, signedInAuth, testUser } from '@/test/render';
import { listPreloaded, postsReducer } from '../posts-slice';

/** The posts state after the page's initial data put a first page of `posts` into a list. */
const preloaded = (posts: Post[]) => postsReducer(undefined, listPreloaded({ list: 'publicPosts', filter: { tag: 'sea' }, posts, total: posts.length }));
import type { Post } from '@/types/entities';

const post = (id: string, over: Partial<Post> = {}): Post =>
  testPost({
  _id: id,
  slug: `slug-${id}`,
  title: `Post ${id}`,
  excerpt: `About ${id}`,
  createdAt: '2024-01-01T00:00:00Z',
  readingTime: 3,
  likesCount: 2,
  commentsCount: 1,
  author: { _id: 'u9', name: 'Bea Writer' },
  category: { _id: 'c1', name: 'Science', slug: 'science' },
  tags: ['rust'],
  thumbnail: '/media/t.png',
  ...over,
  });

describe('the home page', () => {
  it('shows a guest Latest and Trending only, with post cards and the public count', async () => {
    mockAppStartup();
    mockApi.on('GET', '/post/latest-post/latest', { body: { posts: [post('a')], total: 1 } });
    mockApi.on('GET', '/post/count/all', { body: { count: 7 } });
    renderApp('/', { preloadedState: { auth: guestAuth() } });
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Latest', 'Trending']);
    const card = await screen.findByRole('article', { name: 'Post a' });
    expect(within(card).getByRole('link', { name: 'Post a' })).toHaveAttribute('href', '/post/slug-a');
    expect(within(card).getByRole('link', { name: 'Science' })).toHaveAttribute('href', '/category/science');
    expect(within(card).getByRole('link', { name: '#rust' })).toHaveAttribute('href', '/tag/rust');
    expect(within(card).getByText(/3 min read/)).toBeInTheDocument();
    expect(within(card).getByText('About a')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('count-all')).toHaveTextContent('7'));
    expect(screen.queryByTestId('count-mine')).not.toBeInTheDocument();
  });

  it('gives a signed-in reader Following and All posts, and the counts live from postCountsUpdated', async () => {
    mockAppStartup({ signedIn: true });
    mockApi.on('GET', '/post/following', { body: { posts: [post('f')], total: 1 } });
    renderApp('/', { preloadedState: { auth: signedInAuth() } });
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Latest', 'Trending', 'Following', 'All posts']);
    await userEvent.click(screen.getByRole('tab', { name: 'Following' }));
    expect(await screen.findByRole('article', { name: 'Post f' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Following' })).toHaveAttribute('aria-selected', 'true');
    act(() => lastFakeSocket().fire('postCountsUpdated', { allPostsCount: 12, myPostsCount: 3, followingPostsCount: 5 }));
    expect(screen.getByTestId('count-all')).toHaveTextContent('12');
    expect(screen.getByTestId('count-mine')).toHaveTextContent('3');
    expect(screen.getByTestId('count-following')).toHaveTextContent('5');
  });

  it("shows the list's error with a retry ('Failed to load latest posts')", async () => {
    mockAppStartup();
    mockApi.on('GET', '/post/latest-post/latest', { status: 500 });
    renderApp('/', { preloadedState: { auth: guestAuth() } });
    expect(await screen.findByText('Failed to load latest posts')).toBeInTheDocument();
    mockApi.on('GET', '/post/latest-post/latest', { body: { posts: [post('a')], total: 1 } });
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Post a' })).toBeInTheDocument();
  });

  it('loads the next page with Load more and appends it', async () => {
    mockAppStartup();
    mockApi.on('GET', '/post/latest-post/latest', (request) =>
      request.url.searchParams.get('after') ? { body: { posts: [post('b')], total: 2 } } : { body: { posts: [post('a')], total: 2 } },
    );
    renderApp('/', { preloadedState: { auth: guestAuth() } });
    await screen.findByRole('article', { name: 'Post a' });
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('article', { name: 'Post b' })).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });
});

describe('a list the server drew into the page', () => {
  it('is shown to a guest as it is, with no request for it', async () => {
    mockAppStartup();
    const { store } = renderApp('/tag/sea', { preloadedState: { auth: guestAuth(), posts: preloaded([post('s')]) } });
    expect(await screen.findByRole('article', { name: 'Post s' })).toBeInTheDocument();
    await waitFor(() => expect(store.getState().posts.lists.publicPosts.preloaded).toBe(false));
    expect(mockApi.calls('GET', '/post/public/posts')).toHaveLength(0);
    expect(screen.queryByTestId('post-card-skeleton')).not.toBeInTheDocument();
  });

  it('is read again for a signed-in reader (their own rules apply)', async () => {
    mockAppStartup({ signedIn: true });
    mockApi.on('GET', '/post/public/posts', { body: { posts: [post('mine')], total: 1 } });
    renderApp('/tag/sea', { preloadedState: { auth: signedInAuth(), posts: preloaded([post('s')]) } });
    expect(await screen.findByRole('article', { name: 'Post mine' })).toBeInTheDocument();
    expect(mockApi.calls('GET', '/post/public/posts').length).toBeGreaterThan(0);
  });

  it('while a list loads, placeholder cards hold its place', async () => {
    mockAppStartup();
    let answer: (value: MockReply) => void = () => {};
    mockApi.on('GET', '/post/public/posts', () => new Promise((resolve) => (answer = resolve)));
    renderApp('/tag/sea', { preloadedState: { auth: guestAuth() } });
    expect((await screen.findAllByTestId('post-card-skeleton')).length).toBe(6);
    expect(within(screen.getByRole('region', { name: 'Posts tagged sea' })).getByRole('status')).toHaveTextContent('Loading...');
    answer({ body: { posts: [post('s')], total: 1 } });
    expect(await screen.findByRole('article', { name: 'Post s' })).toBeInTheDocument();
    expect(screen.queryByTestId('post-card-skeleton')).not.toBeInTheDocument();
  });
});

describe('the category, tag and bookmark pages', () => {
  it('lists a tag with /post/public/posts?tag', async () => {
    mockAppStartup();
    mockApi.on('GET', '/post/public/posts', { body: { posts: [post('t')], total: 1 } });
    renderApp('/tag/Rust', { preloadedState: { auth: guestAuth() } });
    expect(await screen.findByRole('heading', { name: '#rust' })).toBeInTheDocument();
    await screen.findByRole('article', { name: 'Post t' });
    expect(mockApi.calls('GET', '/post/public/posts')[0].url.searchParams.get('tag')).toBe('rust');
  });

  it('lists a category by slug, named from the categories', async () => {
    mockAppStartup();
    mockApi.on('GET', '/category/all-category', { body: { categories: [{ _id: 'c1', name: 'Science', slug: 'science', description: 'Things we know' }] } });
    mockApi.on('GET', '/post/public/posts', { body: { posts: [], total: 0 } });
    renderApp('/category/science', { preloadedState: { auth: guestAuth() } });
    expect(await screen.findByRole('heading', { name: 'Science' })).toBeInTheDocument();
    expect(await screen.findByText('No posts in this category yet.')).toBeInTheDocument();
    expect(mockApi.calls('GET', '/post/public/posts')[0].url.searchParams.get('category')).toBe('science');
  });

  it('lists bookmarks and removes one in place', async () => {
    mockAppStartup({ signedIn: true });
    mockApi.on('GET', '/post/get-post/bookmarks', { body: { posts: [post('a'), post('b')] } });
    mockApi.on('POST', '/post/bookmark/a', { body: { bookmarked: false, bookmarksCount: 0 } });
    renderApp('/bookmark', { preloadedState: { auth: signedInAuth() } });
    await screen.findByRole('article', { name: 'Post a' });
    await userEvent.click(screen.getByRole('button', { name: /Remove “Post a” from bookmarks/ }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Post a' })).not.toBeInTheDocument());
    expect(screen.getByRole('article', { name: 'Post b' })).toBeInTheDocument();
  });
});

describe('the post page', () => {
  it('shows a blocked post to its author with the notice and an Appeal form', async () => {
    mockAppStartup({ signedIn: true });
    mockNoTips();
    const mine = post('m', { blocked: true, author: { _id: testUser._id, name: testUser.name }, blocks: [{ id: 'p', type: 'paragraph', data: { text: 'Body' } }] });
    mockApi.on('GET', '/post/slug-m', { body: { post: mine } });
    mockApi.on('GET', '/comment/all-comments/m', { body: { comments: [], count: 0 } });
    mockApi.on('GET', '/post/suggested-post/suggested', { body: { posts: [] } });
    mockApi.on('GET', '/post/bookmark-status/m', { body: { liked: false, bookmarked: false, likesCount: 0, bookmarksCount: 0 } });
    mockApi.on('POST', '/post/view/slug-m', { body: { views: 1 } });
    mockApi.on('POST', '/post/appeal/m', { status: 500 });
    // The reading time goes out when the page closes, if the test took a second or more.
    mockApi.on('POST', '/post/time-spent/m', { body: { duration: 1 } });
    renderApp('/post/slug-m', { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Post m' })).toBeInTheDocument();
    expect(screen.getByText('This post has been blocked by an administrator.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/edit-post/slug-m');
    // The form's code loads when the author opens their blocked post.
    await userEvent.type(await screen.findByLabelText('Appeal the block'), 'It follows the rules');
    await userEvent.click(screen.getByRole('button', { name: 'Appeal' }));
    expect(await screen.findByText('Failed to send appeal')).toBeInTheDocument();
  });

  function readerSees(p: Post) {
    mockAppStartup({ signedIn: true });
    mockNoTips();
    mockApi.on('GET', `/post/${p.slug}`, { body: { post: p } });
    mockApi.on('GET', `/comment/all-comments/${p._id}`, { body: { comments: [], count: 0 } });
    mockApi.on('GET', '/post/suggested-post/suggested', { body: { posts: [] } });
    mockApi.on('GET', `/post/bookmark-status/${p._id}`, { body: { liked: false, bookmarked: false, likesCount: 0, bookmarksCount: 0 } });
    mockApi.on('POST', `/post/view/${p.slug}`, { body: { views: 1 } });
    mockApi.on('POST', `/post/time-spent/${p._id}`, { body: { duration: 1 } });
    mockApi.on('GET', /^\/api\/follow\//, { body: { isFollowing: false } });
    renderApp(`/post/${p.slug}`, { preloadedState: { auth: signedInAuth() } });
  }

  it('shows a locked post as its teaser with a way to subscribe, and no blocks', async () => {
    readerSees(post('l', { locked: true, audience: 'subscribers', blocks: [], excerpt: 'The opening lines' }));
    expect(await screen.findByText('This post is for subscribers only.')).toBeInTheDocument();
    expect(screen.getByText('The opening lines')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Subscribe to Bea Writer to read on' })).toHaveAttribute('href', '/plans/u9');
  });

  it("reports a post once: reason and details, the server's confirmation, then the button says Reported", async () => {
    readerSees(post('r', { blocks: [{ id: 'p', type: 'paragraph', data: { text: 'Body' } }] }));
    mockApi.on('POST', '/admin/reports', { status: 201, body: { message: 'Thank you. The post was reported to the moderators.' } });
    await userEvent.click(await screen.findByRole('button', { name: 'Report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report this post' });
    await userEvent.click(within(dialog).getByLabelText('Spam'));
    await userEvent.type(within(dialog).getByLabelText('Details (optional)'), 'Links everywhere');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText('Thank you. The post was reported to the moderators.')).toBeInTheDocument();
    expect(mockApi.calls('POST', '/admin/reports')[0].body).toEqual({ postId: 'r', reason: 'spam', details: 'Links everywhere' });
    expect(screen.getByRole('button', { name: 'Reported' })).toBeDisabled();
  });

  it('shows a reader the comments oldest first, and their new comment at once', async () => {
    mockAppStartup({ signedIn: true });
    mockNoTips();
    mockApi.on('GET', '/post/slug-a', { body: { post: post('a', { blocks: [] }) } });
    mockApi.on('GET', '/comment/all-comments/a', {
      body: {
        comments: [
          { _id: 'c2', post: 'a', content: 'Second', user: 'u3', userData: { _id: 'u3', name: 'Cy' }, createdAt: '2024-01-02T00:00:00Z', replies: [] },
          { _id: 'c1', post: 'a', content: 'First', user: 'u2', userData: { _id: 'u2', name: 'Bo' }, createdAt: '2024-01-01T00:00:00Z', replies: [] },
        ],
        count: 2,
      },
    });
    mockApi.on('GET', '/post/suggested-post/suggested', { body: { posts: [post('s')] } });
    mockApi.on('GET', '/post/bookmark-status/a', { body: { liked: false, bookmarked: false, likesCount: 2, bookmarksCount: 0 } });
    mockApi.on('GET', '/follow/status/u9', { body: { isFollowing: false } });
    mockApi.on('POST', '/post/view/slug-a', { body: { views: 3 } });
    mockApi.on('POST', '/post/time-spent/a', { body: { duration: 1 } });
    mockApi.on('POST', '/comment/add-comment/a', { status: 201, body: { comment: { _id: 'c3', post: 'a', content: 'Mine', user: testUser._id, userData: { _id: testUser._id, name: testUser.name }, createdAt: '2024-01-03T00:00:00Z', replies: [] } } });
    renderApp('/post/slug-a', { preloadedState: { auth: signedInAuth() } });
    await screen.findByText('First');
    const texts = () => screen.getAllByTestId('comment').map((el) => el.querySelector('.comment__body')?.textContent);
    expect(texts()).toEqual(['First', 'Second']);
    expect(screen.getByRole('button', { name: /Follow Bea Writer/ })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Read next' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Add a comment'), 'Mine');
    expect(screen.getByText('4 / 5000')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Comment' }));
    await waitFor(() => expect(texts()).toEqual(['First', 'Second', 'Mine']));
    expect(screen.getByTestId('comment-count')).toHaveTextContent('(3)');
  });

  it("says 'Post not found' for a post the reader may not see", async () => {
    mockAppStartup();
    mockApi.on('GET', '/public/post/hidden', { status: 404, body: { message: 'Post not found', code: 'not_found' } });
    renderApp('/post/hidden', { preloadedState: { auth: guestAuth() } });
    expect(await screen.findByText('Post not found')).toBeInTheDocument();
  });
});
