// Seed 001 §3 "Follow state" and §4 "Follow".
import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { signedInAuth } from '@/test/render';
import { blockUser } from '@/features/blocks';
import { socketEvents } from '@/features/socket';
import {
  fetchAllFollowerLocations,
  fetchFollowList,
  fetchFollowStatus,
  fetchFollowerLocations,
  followUser,
  initialFollowsState,
  unfollowUser,
  type FollowsState,
} from './follows-slice';

const bea = { _id: 'u2', name: 'Bea' };

function storeWith(follows: Partial<FollowsState> = {}) {
  return setupStore({ auth: signedInAuth(), follows: { ...initialFollowsState, ...follows } });
}

const followingBea = { ...initialFollowsState.following, list: [bea], count: 1 };

/** Waits for the reconciling status call a follow or unfollow makes afterwards. */
async function settled() {
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('follows', () => {
  it('following adds the user to the following list and raises the count', async () => {
    mockApi.on('POST', '/follow/u2', { body: { message: 'Followed', isFollowing: true, followersCount: 5 } });
    mockApi.on('GET', '/follow/status/u2', { body: { isFollowing: true } });
    const store = storeWith();
    await store.dispatch(followUser({ user: bea }));
    expect(store.getState().follows.status.u2).toMatchObject({ isFollowing: true, followersCount: 5, pending: false });
    expect(store.getState().follows.following).toMatchObject({ count: 1, list: [{ _id: 'u2', isFollowing: true }] });
  });

  it('following is optimistic: the state changes before the server answers', async () => {
    mockApi.on('POST', '/follow/u2', { body: { isFollowing: true, followersCount: 6 }, delayMs: 50 });
    mockApi.on('GET', '/follow/status/u2', { body: { isFollowing: true } });
    const store = storeWith({ status: { u2: { isFollowing: false, followersCount: 5, pending: false, error: null } } });
    const done = store.dispatch(followUser({ user: bea }));
    expect(store.getState().follows.status.u2).toMatchObject({ isFollowing: true, followersCount: 6, pending: true });
    expect(store.getState().follows.following.count).toBe(1);
    await done;
    expect(store.getState().follows.status.u2).toMatchObject({ isFollowing: true, followersCount: 6, pending: false });
  });

  it('a failed follow goes back to how it was, with the error', async () => {
    mockApi.on('POST', '/follow/u2', { status: 403, body: { message: 'You cannot interact with this user', code: 'forbidden' } });
    mockApi.on('GET', '/follow/status/u2', { body: { isFollowing: false } });
    const store = storeWith({ status: { u2: { isFollowing: false, followersCount: 5, pending: false, error: null } } });
    await store.dispatch(followUser({ user: bea }));
    expect(store.getState().follows.status.u2).toMatchObject({
      isFollowing: false,
      followersCount: 5,
      pending: false,
      error: 'You cannot interact with this user',
    });
    expect(store.getState().follows.following).toMatchObject({ list: [], count: 0 });
  });

  it("a follow failing without a message says 'Failed to follow user'", async () => {
    mockApi.on('POST', '/follow/u2', { status: 500 });
    mockApi.on('GET', '/follow/status/u2', { body: { isFollowing: false } });
    const store = storeWith();
    await store.dispatch(followUser({ user: bea }));
    expect(store.getState().follows.status.u2.error).toBe('Failed to follow user');
  });

  it('unfollowing removes the user and lowers the count, never below 0', async () => {
    mockApi.on('POST', '/follow/unfollow/u2', { body: { message: 'Unfollowed', isFollowing: false, followersCount: 4 } });
    mockApi.on('GET', '/follow/status/u2', { body: { isFollowing: false } });
    const store = storeWith({ following: followingBea });
    await store.dispatch(unfollowUser({ userId: 'u2' }));
    expect(store.getState().follows.following).toMatchObject({ list: [], count: 0 });
    await store.dispatch(unfollowUser({ userId: 'u2' }));
    expect(store.getState().follows.following.count).toBe(0);
  });

  it('a failed unfollow puts the user back in the list with the count', async () => {
    mockApi.on('POST', '/follow/unfollow/u2', { status: 500 });
    mockApi.on('GET', '/follow/status/u2', { body: { isFollowing: true } });
    const store = storeWith({ following: followingBea, status: { u2: { isFollowing: true, pending: false, error: null } } });
    await store.dispatch(unfollowUser({ userId: 'u2' }));
    expect(store.getState().follows.following).toMatchObject({ list: [{ _id: 'u2' }], count: 1 });
    expect(store.getState().follows.status.u2).toMatchObject({ isFollowing: true, error: 'Failed to unfollow user' });
  });

  it('a follow-status result reconciles the list both ways', async () => {
    mockApi.on('GET', '/follow/status/u2', { body: { isFollowing: false } });
    const store = storeWith({ following: followingBea });
    await store.dispatch(fetchFollowStatus('u2'));
    expect(store.getState().follows.following).toMatchObject({ list: [], count: 0 });
    expect(store.getState().follows.status.u2.isFollowing).toBe(false);

    // The server says followed after all (e.g. followed in another tab): back in the list.
    const known = storeWith({ status: { u2: { isFollowing: false, pending: false, error: null, person: bea } } });
    mockApi.on('GET', '/follow/status/u2', { body: { isFollowing: true } });
    await known.dispatch(fetchFollowStatus('u2'));
    expect(known.getState().follows.following).toMatchObject({ list: [{ _id: 'u2' }], count: 1 });
  });

  it('every follow and unfollow is followed by a follow-status call', async () => {
    mockApi.on('POST', '/follow/u2', { body: { isFollowing: true, followersCount: 1 } });
    mockApi.on('GET', '/follow/status/u2', { body: { isFollowing: true } });
    const store = storeWith();
    await store.dispatch(followUser({ user: bea }));
    await settled();
    expect(mockApi.calls('GET', '/follow/status/u2')).toHaveLength(1);
  });

  it("the follow transitions leave another user's lists alone", async () => {
    mockApi.on('GET', '/follow/following', { body: { list: [{ _id: 'u9', name: 'Ida', isFollowing: false }], count: 1, page: 1, totalPages: 1 } });
    mockApi.on('POST', '/follow/u2', { body: { isFollowing: true, followersCount: 1 } });
    mockApi.on('GET', '/follow/status/u2', { body: { isFollowing: true } });
    const store = storeWith();
    await store.dispatch(fetchFollowList({ which: 'following', userId: 'u7' }));
    await store.dispatch(followUser({ user: bea }));
    expect(store.getState().follows.following).toMatchObject({ userId: 'u7', count: 1, list: [{ _id: 'u9' }] });
  });

  it('lists page by page: page 1 replaces, later pages append without repeats', async () => {
    mockApi.on('GET', '/follow/followers', (req) =>
      req.url.searchParams.get('page') === '2'
        ? { body: { list: [{ _id: 'b', name: 'B' }, { _id: 'c', name: 'C' }], count: 3, page: 2, totalPages: 2 } }
        : { body: { list: [{ _id: 'a', name: 'A' }, { _id: 'b', name: 'B' }], count: 3, page: 1, totalPages: 2 } },
    );
    const store = storeWith();
    await store.dispatch(fetchFollowList({ which: 'followers' }));
    await store.dispatch(fetchFollowList({ which: 'followers', page: 2 }));
    const followers = store.getState().follows.followers;
    expect(followers.list.map((p) => p._id)).toEqual(['a', 'b', 'c']);
    expect(followers).toMatchObject({ count: 3, page: 2, totalPages: 2, status: 'succeeded' });
    expect(mockApi.calls('GET', '/follow/followers')[0].url.searchParams.get('limit')).toBe('12');
  });

  it("a failed list says 'Failed to fetch follows' unless the server says more", async () => {
    mockApi.on('GET', '/follow/followers', { status: 403, body: { message: 'You cannot interact with this user', code: 'forbidden' } });
    const store = storeWith();
    await store.dispatch(fetchFollowList({ which: 'followers', userId: 'x' }));
    expect(store.getState().follows.followers).toMatchObject({ status: 'failed', error: 'You cannot interact with this user' });
  });

  it('blocking someone ends the follow', async () => {
    mockApi.on('POST', '/block/block-user/u2', { body: { message: 'User blocked successfully' } });
    const store = storeWith({ following: followingBea, status: { u2: { isFollowing: true, pending: false, error: null } } });
    await store.dispatch(blockUser({ userId: 'u2' }));
    expect(store.getState().follows.following).toMatchObject({ list: [], count: 0 });
    expect(store.getState().follows.status.u2.isFollowing).toBe(false);
  });
});

describe('follower locations', () => {
  const pune = { userId: 'f1', coordinates: { lat: 18.5, lon: 73.8 }, city: 'Pune', country: 'India', state: 'MH', pincode: '411001', isOnline: false, user: { _id: 'f1', name: 'Fan' } };

  it('a page carries list, count, page and totalPages (page size 12, offline ones included)', async () => {
    mockApi.on('GET', '/follow/follower-locations', { body: { list: [pune], total: 13, totalPages: 2, page: 1 } });
    const store = storeWith();
    await store.dispatch(fetchFollowerLocations());
    expect(store.getState().follows.locations).toMatchObject({ list: [pune], count: 13, page: 1, totalPages: 2, status: 'succeeded' });
    const query = mockApi.calls('GET', '/follow/follower-locations')[0].url.searchParams;
    expect([query.get('limit'), query.get('includeOffline'), query.get('page')]).toEqual(['12', 'true', '1']);
  });

  it('the map reads every page', async () => {
    mockApi.on('GET', '/follow/follower-locations', (req) => {
      const page = Number(req.url.searchParams.get('page'));
      return { body: { list: [{ ...pune, userId: `f${page}` }], total: 3, totalPages: 3, page } };
    });
    const store = storeWith();
    await store.dispatch(fetchAllFollowerLocations());
    expect(store.getState().follows.locations.list.map((l) => l.userId)).toEqual(['f1', 'f2', 'f3']);
    expect(store.getState().follows.locations.count).toBe(3);
  });

  it("a failure says 'Failed to fetch follower locations'", async () => {
    mockApi.on('GET', '/follow/follower-locations', { status: 500 });
    const store = storeWith();
    await store.dispatch(fetchAllFollowerLocations());
    expect(store.getState().follows.locations).toMatchObject({ status: 'failed', error: 'Failed to fetch follower locations' });
  });

  it('a live move moves the follower to the front with their new place; who they are stays', () => {
    const other = { ...pune, userId: 'f0', user: { _id: 'f0', name: 'Zed' } };
    const store = storeWith({ locations: { list: [other, pune], count: 2, page: 1, totalPages: 1, status: 'succeeded', error: null } });
    store.dispatch(socketEvents.userLocationUpdated({ userId: 'f1', lat: 51.5, lon: -0.1, city: 'London' } as never));
    const [first, second] = store.getState().follows.locations.list;
    expect(first).toMatchObject({ userId: 'f1', coordinates: { lat: 51.5, lon: -0.1 }, city: 'London', country: 'Unknown', user: { name: 'Fan' } });
    expect(second.userId).toBe('f0');
    expect(store.getState().follows.locations.count).toBe(2);
  });

  it('a move without userId, lat or lon, or of someone not on the map, is ignored', () => {
    const store = storeWith({ locations: { list: [pune], count: 1, page: 1, totalPages: 1, status: 'succeeded', error: null } });
    for (const bad of [{ lat: 1, lon: 2 }, { userId: 'f1', lon: 2 }, { userId: 'f1', lat: 1 }, { userId: 'stranger', lat: 1, lon: 2 }]) {
      store.dispatch(socketEvents.userLocationUpdated(bad as never));
    }
    expect(store.getState().follows.locations.list).toEqual([pune]);
  });

  it('presence lights a follower up and down', () => {
    const store = storeWith({ locations: { list: [pune], count: 1, page: 1, totalPages: 1, status: 'succeeded', error: null } });
    store.dispatch(socketEvents.userStatusChanged({ userId: 'f1', isOnline: true }));
    expect(store.getState().follows.locations.list[0].isOnline).toBe(true);
    store.dispatch(socketEvents.userStatusChanged({ userId: 'f1', isOnline: false }));
    expect(store.getState().follows.locations.list[0].isOnline).toBe(false);
  });
});
