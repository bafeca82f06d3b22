import { screen } from '@testing-library/react';
import { mockApi } from '@/test/mock-api';
import { guestAuth, renderWithProviders } from '@/test/render';
import { initialSearchState } from '../search-slice';
import SearchPage from './search-page';

const post = (id: string, title: string) => ({ _id: id, slug: id, title, blocks: [] });
const previous = {
  ...initialSearchState,
  results: { query: 'react', posts: [post('p1', 'React hooks in depth')], total: 1, page: 1, status: 'succeeded' as const, error: null },
};

describe('the search page', () => {
  it("does not show the previous query's results for a query under 3 characters", () => {
    renderWithProviders(<SearchPage />, { route: '/search?query=re', preloadedState: { auth: guestAuth(), search: previous } });
    expect(screen.getByText('Type at least 3 characters to search.')).toBeInTheDocument();
    expect(screen.queryByText('React hooks in depth')).not.toBeInTheDocument();
  });

  it('shows only the results of the current query when an older reply arrives late', async () => {
    mockApi.on('GET', '/public/search-posts', (request) =>
      request.url.searchParams.get('query') === 'slow'
        ? { body: { posts: [post('s', 'Slow result')], total: 1, page: 1 }, delayMs: 50 }
        : { body: { posts: [post('f', 'Fast result')], total: 1, page: 1 } },
    );
    const { store } = renderWithProviders(<SearchPage />, { route: '/search?query=slow', preloadedState: { auth: guestAuth() } });
    const { searchPosts } = await import('../search-slice');
    await store.dispatch(searchPosts({ query: 'fast', page: 1 }));
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(store.getState().search.results.query).toBe('fast');
    expect(store.getState().search.results.posts.map((p) => p.title)).toEqual(['Fast result']);
  });
});
