// Seed 001 §3 "Block" (a success message, an error), §7 "Blocks", §8 'Block failed' / 'Unblock failed'.
import { setupStore } from '@/app/store';
import { itemsOf } from '@/features/posts';
import { mockApi } from '@/test/mock-api';
import { signedInAuth } from '@/test/render';
import { blockUser, fetchBlockedUsers, unblockUser } from './blocks-slice';

describe('blocks', () => {
  it('blocking stores the server message and puts the person on the blocked list', async () => {
    mockApi.on('POST', '/block/block-user/u2', { body: { message: 'User blocked successfully' } });
    const store = setupStore({ auth: signedInAuth() });
    const done = store.dispatch(blockUser({ userId: 'u2', name: 'Bea' }));
    expect(store.getState().blocks.pending).toEqual(['u2']);
    await done;
    expect(store.getState().blocks).toMatchObject({ message: 'User blocked successfully', error: null, pending: [], list: [{ _id: 'u2', name: 'Bea' }] });
  });

  it("a failed block says the server's message, else 'Block failed'", async () => {
    mockApi.on('POST', '/block/block-user/u2', { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(blockUser({ userId: 'u2' }));
    expect(store.getState().blocks).toMatchObject({ error: 'Block failed', message: null, list: [] });
    mockApi.on('POST', '/block/block-user/u1', { status: 400, body: { message: 'You cannot block yourself', code: 'bad_request' } });
    await store.dispatch(blockUser({ userId: 'u1' }));
    expect(store.getState().blocks.error).toBe('You cannot block yourself');
  });

  it('unblocking sends blockedUserId and takes the person off the list', async () => {
    mockApi.on('GET', '/block/list', { body: { users: [{ _id: 'u2', name: 'Bea', blockedAt: '2024-01-01T00:00:00Z' }] } });
    mockApi.on('POST', '/block/unblock', { body: { message: 'User unblocked successfully' } });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchBlockedUsers());
    expect(store.getState().blocks).toMatchObject({ listStatus: 'succeeded', list: [{ _id: 'u2' }] });
    await store.dispatch(unblockUser({ userId: 'u2' }));
    expect(mockApi.calls('POST', '/block/unblock')[0].body).toEqual({ blockedUserId: 'u2' });
    expect(store.getState().blocks).toMatchObject({ message: 'User unblocked successfully', list: [] });
  });

  it("a failed unblock says 'Unblock failed' and keeps the person listed", async () => {
    mockApi.on('GET', '/block/list', { body: { users: [{ _id: 'u2', name: 'Bea' }] } });
    mockApi.on('POST', '/block/unblock', { status: 502 });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchBlockedUsers());
    await store.dispatch(unblockUser({ userId: 'u2' }));
    expect(store.getState().blocks).toMatchObject({ error: 'Unblock failed', list: [{ _id: 'u2' }] });
  });

  it('a failed blocked list is marked failed', async () => {
    mockApi.on('GET', '/block/list', { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchBlockedUsers());
    expect(store.getState().blocks).toMatchObject({ listStatus: 'failed', error: 'Failed to fetch blocked users' });
  });

  it("blocking an author takes their posts out of the user's lists", async () => {
    mockApi.on('POST', '/block/block-user/u2', { body: { message: 'User blocked successfully' } });
    const store = setupStore({ auth: signedInAuth() });
    const posts = [
      { _id: 'p1', slug: 'a', title: 'A', author: { _id: 'u2', name: 'Bea' } },
      { _id: 'p2', slug: 'b', title: 'B', author: { _id: 'u3', name: 'Cy' } },
    ];
    store.dispatch({ type: 'posts/fetchList/pending', meta: { arg: { list: 'latestPosts' }, requestId: 'r' } });
    store.dispatch({ type: 'posts/fetchList/fulfilled', payload: { posts, total: 2, page: 1 }, meta: { arg: { list: 'latestPosts' }, requestId: 'r' } });
    await store.dispatch(blockUser({ userId: 'u2' }));
    const list = store.getState().posts.lists.latestPosts;
    expect(list.total).toBe(1);
    expect(itemsOf(list)).toMatchObject([{ _id: 'p2' }]);
  });
});
