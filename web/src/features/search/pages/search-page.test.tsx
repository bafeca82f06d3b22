import { screen } from '@testing-library/react';
import { testPost } from '@/test/fixtures';
import { setupStore } from '@/app/store';
import { emptyList, fetchPostList, filterKeyOf, itemsOf, postItems } from '@/features/posts';
import { mockApi } from '@/test/mock-api';
import { guestAuth, renderWithProviders } from '@/test/render';
import SearchPage from './search-page';

const post = (id: string, title: string) => testPost({ _id: id, slug: id, title, blocks: [] });

describe('the search page', () => {
  it("does not show the previous query's results for a query under 3 characters", () => {
    const store = setupStore({ auth: guestAuth() });
    const lists = store.getState().posts.lists;
    const previous = { ...emptyList(), items: postItems([post('p1', 'React hooks in depth')]), total: 1, status: 'succeeded' as const, filterKey: filterKeyOf({ query: 'react' }) };
    const preloaded = { ...store.getState().posts, lists: { ...lists, searchPosts: previous } };
    renderWithProviders(<SearchPage />, { route: '/search?query=re', preloadedState: { auth: guestAuth(), posts: preloaded } });
    expect(screen.getByText('Type at least 3 characters to search.')).toBeInTheDocument();
    expect(screen.queryByText('React hooks in depth')).not.toBeInTheDocument();
  });

  it('shows only the results of the current query when an older reply arrives late', async () => {
    mockApi.on('GET', '/public/search-posts', (request) =>
      request.url.searchParams.get('query') === 'slow'
        ? { body: { posts: [post('s', 'Slow result')], total: 1, page: 1 }, delayMs: 50 }
        : { body: { posts: [post('f', 'Fast result')], total: 1, page: 1 } },
    );
    const store = setupStore({ auth: guestAuth() });
    const slow = store.dispatch(fetchPostList({ list: 'searchPosts', filter: { query: 'slow' } }));
    await store.dispatch(fetchPostList({ list: 'searchPosts', filter: { query: 'fast' } }));
    await slow;
    expect(store.getState().posts.lists.searchPosts.filterKey).toBe(filterKeyOf({ query: 'fast' }));
    expect(itemsOf(store.getState().posts.lists.searchPosts).map((p) => p.title)).toEqual(['Fast result']);
  });

  it('lists matching users first, then posts', async () => {
    mockApi.on('GET', '/public/search-posts', { body: { posts: [post('p', 'Rust in production')], total: 1, page: 1 } });
    mockApi.on('GET', '/post/search-users', { body: { users: [{ _id: 'u9', name: 'Rusty Writer', totalPosts: 3 }] } });
    renderWithProviders(<SearchPage />, { route: '/search?query=rust', preloadedState: { auth: guestAuth() } });
    const person = await screen.findByRole('link', { name: 'Rusty Writer' });
    const postLink = await screen.findByRole('link', { name: 'Rust in production' });
    expect(person).toHaveAttribute('href', '/author-profile/u9');
    expect(person.compareDocumentPosition(postLink) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByText('Posts: 3')).toBeInTheDocument();
  });
});
