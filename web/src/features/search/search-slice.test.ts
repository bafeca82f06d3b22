import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { signedInAuth } from '@/test/render';
import { runSearch, searchCleared } from './search-slice';

describe('search', () => {
  it('needs at least 3 characters', async () => {
    const store = setupStore();
    await store.dispatch(runSearch('ab'));
    expect(store.getState().search.status).toBe('idle');
  });

  it('runs the post and user searches together (public posts for guests)', async () => {
    mockApi.on('GET', '/public/search-posts', { body: { posts: [{ _id: 'p', slug: 's', title: 'Rust' }], total: 1 } });
    mockApi.on('GET', '/post/search-users', { body: { users: [{ _id: 'u', name: 'Rusty' }] } });
    const store = setupStore();
    await store.dispatch(runSearch('rus'));
    expect(store.getState().search).toMatchObject({ status: 'succeeded', query: 'rus' });
    expect(store.getState().search.posts).toHaveLength(1);
    expect(store.getState().search.users).toHaveLength(1);
    expect(mockApi.calls('GET', '/public/search-posts')[0].url.searchParams.get('limit')).toBe('12');
  });

  it('uses the signed-in post search for users', async () => {
    mockApi.on('GET', '/post/search-post/search', { body: { posts: [], total: 0 } });
    mockApi.on('GET', '/post/search-users', { body: { users: [] } });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(runSearch('rust'));
    expect(mockApi.calls('GET', '/post/search-post/search')[0].url.searchParams.get('query')).toBe('rust');
  });

  it('does not run the same query again', async () => {
    mockApi.on('GET', '/public/search-posts', { body: { posts: [], total: 0 } });
    mockApi.on('GET', '/post/search-users', { body: { users: [] } });
    const store = setupStore();
    await store.dispatch(runSearch('rust'));
    await store.dispatch(runSearch('rust '));
    expect(mockApi.calls('GET', '/post/search-users')).toHaveLength(1);
    store.dispatch(searchCleared());
    await store.dispatch(runSearch('rust'));
    expect(mockApi.calls('GET', '/post/search-users')).toHaveLength(2);
  });

  it('fails only when both searches fail', async () => {
    mockApi.on('GET', '/public/search-posts', { status: 404 });
    mockApi.on('GET', '/post/search-users', { status: 404 });
    const store = setupStore();
    await store.dispatch(runSearch('rust'));
    expect(store.getState().search).toMatchObject({ status: 'failed', error: 'Failed to search public posts' });
  });

});
