// Seed 001 §4 "Follow".
import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { signedInAuth } from '@/test/render';
import { fetchFollowStatus, followUser, initialFollowsState, unfollowUser } from './follows-slice';

const bea = { _id: 'u2', name: 'Bea' };

describe('follows', () => {
  it('following adds the user to the following list and raises the count', async () => {
    mockApi.on('POST', '/follow/u2', { body: { message: 'Followed', isFollowing: true, followersCount: 5 } });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(followUser({ user: bea }));
    expect(store.getState().follows.status.u2).toMatchObject({ isFollowing: true, followersCount: 5, pending: false });
    expect(store.getState().follows.following).toMatchObject({ count: 1, list: [{ _id: 'u2', isFollowing: true }] });
  });

  it('unfollowing removes the user and lowers the count, never below 0', async () => {
    mockApi.on('POST', '/follow/unfollow/u2', { body: { message: 'Unfollowed', isFollowing: false, followersCount: 4 } });
    const store = setupStore({
      auth: signedInAuth(),
      follows: { ...initialFollowsState, following: { ...initialFollowsState.following, list: [bea], count: 1 } },
    });
    await store.dispatch(unfollowUser({ userId: 'u2' }));
    expect(store.getState().follows.following).toMatchObject({ list: [], count: 0 });
    await store.dispatch(unfollowUser({ userId: 'u2' }));
    expect(store.getState().follows.following.count).toBe(0);
  });

  it('a follow-status result reconciles the list', async () => {
    mockApi.on('GET', '/follow/status/u2', { body: { isFollowing: false } });
    const store = setupStore({
      auth: signedInAuth(),
      follows: { ...initialFollowsState, following: { ...initialFollowsState.following, list: [bea], count: 1 } },
    });
    await store.dispatch(fetchFollowStatus('u2'));
    expect(store.getState().follows.following).toMatchObject({ list: [], count: 0 });
    expect(store.getState().follows.status.u2.isFollowing).toBe(false);
  });
});
