import { act } from '@testing-library/react';
import { itemsOf } from '@/features/posts';
import type { UserProfile } from '@/types/entities';
import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { signedInAuth, testAdmin } from '@/test/render';
import { blockUser, unblockUser } from '@/features/blocks';
import { followUser, unfollowUser } from '@/features/follows';
import { socketEvents } from '@/features/socket';
import {
  ACTIVITY_RETENTION_DAYS,
  clearActivity,
  clearOldActivity,
  deleteUser,
  fetchActivity,
  fetchCurrentUser,
  fetchUserById,
  fetchUsers,
  initialUsersState,
  toggleUserBlock,
  toggleUserRole,
  updateCurrentUser,
  USER_ERROR_CLEAR_MS,
  USER_PAGE_SIZE,
  type UsersState,
} from './users-slice';

describe('users', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a user error clears after 3 seconds', async () => {
    vi.useFakeTimers();
    mockApi.on('GET', '/user/get-user', { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    await act(() => store.dispatch(fetchCurrentUser()));
    expect(store.getState().users.error).toBe('Failed to fetch user');
    await act(() => vi.advanceTimersByTimeAsync(2999));
    expect(store.getState().users.error).toBe('Failed to fetch user');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(store.getState().users.error).toBeNull();
    expect(USER_ERROR_CLEAR_MS).toBe(3000);
  });

  it('a newer error gets its own 3 seconds', async () => {
    vi.useFakeTimers();
    mockApi.on('GET', '/user/get-user', { status: 500 });
    mockApi.on('PATCH', '/user/update-user', { status: 400, body: { message: 'Unknown field role' } });
    const store = setupStore({ auth: signedInAuth() });
    await act(() => store.dispatch(fetchCurrentUser()));
    await act(() => vi.advanceTimersByTimeAsync(2000));
    await act(() => store.dispatch(updateCurrentUser({ name: 'x' })));
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(store.getState().users.error).toBe('Unknown field role');
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(store.getState().users.error).toBeNull();
  });

  it("a profile without data is 'Invalid user data'", async () => {
    mockApi.on('GET', '/user/get-user', { body: {} });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchCurrentUser());
    expect(store.getState().users.error).toBe('Invalid user data');
  });
});

describe('users (seed 000 §4 "Users")', () => {
  const ada = { _id: 'u1', name: 'Ada Lovelace', blocked: false, role: 'user' };
  const bob = { _id: 'u2', name: 'Bob', blocked: false, role: 'user' };
  /** A whole profile (`Profile`) of a listed user. */
  const profileOf = (u: typeof bob): UserProfile => ({ totalPosts: 0, isAccountVerified: true, createdAt: '2024-01-01T00:00:00Z', followersCount: 0, followingCount: 0, isOnline: false, ...u });
  const withList = (extra: Partial<UsersState> = {}) =>
    setupStore({
      auth: signedInAuth({ user: testAdmin, role: 'admin' }),
      users: { ...initialUsersState, users: { list: [ada, bob], page: 1, total: 2, totalPages: 1, status: 'succeeded' }, profile: { ...ada }, ...extra },
    });

  it('the list is read with page, limit 10, search, sortField name and sortOrder asc', async () => {
    mockApi.on('GET', '/user/get-all-user', { body: { users: [ada, bob], total: 12, totalPages: 2, page: 1 } });
    const store = withList();
    await store.dispatch(fetchUsers({ search: 'a' }));
    const q = mockApi.calls('GET', '/user/get-all-user')[0].url.searchParams;
    expect([q.get('page'), q.get('limit'), q.get('search'), q.get('sortField'), q.get('sortOrder')]).toEqual(['1', '10', 'a', 'name', 'asc']);
    expect(store.getState().users.users).toMatchObject({ total: 12, totalPages: 2, status: 'succeeded' });
    expect(USER_PAGE_SIZE).toBe(10);
  });

  it("a failed list says 'Failed to fetch users'", async () => {
    mockApi.on('GET', '/user/get-all-user', { status: 500 });
    const store = withList();
    await store.dispatch(fetchUsers({}));
    expect(store.getState().users.error).toBe('Failed to fetch users');
  });

  it('the block toggle updates the user in the list and in the own profile', async () => {
    mockApi.on('PATCH', '/user/toggle-block/u1', { body: { message: 'User blocked', data: { _id: 'u1', blocked: true } } });
    const store = withList();
    await store.dispatch(toggleUserBlock('u1'));
    expect(store.getState().users.users.list[0].blocked).toBe(true);
    expect(store.getState().users.profile?.blocked).toBe(true);
  });

  it('without a blocked value from the server the local one is flipped', async () => {
    mockApi.on('PATCH', '/user/toggle-block/u2', { body: { message: 'done' } });
    const store = withList();
    await store.dispatch(toggleUserBlock('u2'));
    expect(store.getState().users.users.list[1].blocked).toBe(true);
    await store.dispatch(toggleUserBlock('u2'));
    expect(store.getState().users.users.list[1].blocked).toBe(false);
  });

  it("the role toggle updates the list and the own profile; failure says 'Failed to toggle user role'", async () => {
    mockApi.on('PATCH', '/user/toggle-role/u1', { body: { data: { _id: 'u1', role: 'admin' } } });
    const store = withList();
    await store.dispatch(toggleUserRole('u1'));
    expect(store.getState().users.users.list[0].role).toBe('admin');
    expect(store.getState().users.profile?.role).toBe('admin');
    mockApi.on('PATCH', '/user/toggle-role/u2', { status: 500 });
    await store.dispatch(toggleUserRole('u2'));
    expect(store.getState().users.error).toBe('Failed to toggle user role');
  });

  it("a failed block toggle says 'Failed to toggle block status'", async () => {
    mockApi.on('PATCH', '/user/toggle-block/u2', { status: 500 });
    const store = withList();
    await store.dispatch(toggleUserBlock('u2'));
    expect(store.getState().users.error).toBe('Failed to toggle block status');
    expect(store.getState().users.users.list[1].blocked).toBe(false);
  });

  it('deleting a user removes them from the list, and clears the own profile when it is them', async () => {
    mockApi.on('DELETE', '/user/delete-user', { body: { message: 'User deleted' } });
    const store = withList();
    await store.dispatch(deleteUser('u2'));
    expect(store.getState().users.users).toMatchObject({ list: [ada], total: 1 });
    expect(store.getState().users.profile?._id).toBe('u1');
    expect(mockApi.calls('DELETE', '/user/delete-user')[0].body).toEqual({ userId: 'u2' });
    await store.dispatch(deleteUser('u1'));
    expect(store.getState().users.profile).toBeNull();
  });

  it("a failed delete says 'Failed to delete user' and keeps the user", async () => {
    mockApi.on('DELETE', '/user/delete-user', { status: 500 });
    const store = withList();
    await store.dispatch(deleteUser('u2'));
    expect(store.getState().users.error).toBe('Failed to delete user');
    expect(store.getState().users.users.list).toHaveLength(2);
  });

  it('a profile by id becomes selectedUser; a failure clears it', async () => {
    mockApi.on('GET', '/user/get-single-user/u2', { body: { data: { ...bob, followersCount: 3, isOnline: true } } });
    const store = withList();
    await store.dispatch(fetchUserById('u2'));
    expect(store.getState().users.selectedUser).toMatchObject({ _id: 'u2', followersCount: 3, isOnline: true });
    mockApi.on('GET', '/user/get-single-user/u2', { status: 500 });
    await store.dispatch(fetchUserById('u2'));
    expect(store.getState().users).toMatchObject({ selectedUser: null, selectedStatus: 'failed', selectedError: 'Failed to fetch user by ID' });
  });

  it('presence moves the online dot of the profile being looked at', () => {
    const store = withList({ selectedUser: { ...profileOf(bob), isOnline: false } });
    store.dispatch(socketEvents.userStatusChanged({ userId: 'u2', isOnline: true }));
    expect(store.getState().users.selectedUser?.isOnline).toBe(true);
    store.dispatch(socketEvents.userStatusChanged({ userId: 'u3', isOnline: false }));
    expect(store.getState().users.selectedUser?.isOnline).toBe(true);
  });

  it('following from a profile raises its follower count at once, then takes the server count', async () => {
    mockApi.on('POST', '/follow/u2', { body: { isFollowing: true, followersCount: 9 }, delayMs: 20 });
    mockApi.on('GET', '/follow/status/u2', { body: { isFollowing: true } });
    const store = withList({ selectedUser: { ...profileOf(bob), followersCount: 4, isFollowing: false } });
    const done = store.dispatch(followUser({ user: bob }));
    expect(store.getState().users.selectedUser).toMatchObject({ followersCount: 5, isFollowing: true });
    await done;
    expect(store.getState().users.selectedUser).toMatchObject({ followersCount: 9, isFollowing: true });
  });

  it('a failed unfollow from a profile gives the count back', async () => {
    mockApi.on('POST', '/follow/unfollow/u2', { status: 500 });
    mockApi.on('GET', '/follow/status/u2', { body: { isFollowing: true } });
    const store = withList({ selectedUser: { ...profileOf(bob), followersCount: 4, isFollowing: true } });
    await store.dispatch(unfollowUser({ userId: 'u2' }));
    expect(store.getState().users.selectedUser).toMatchObject({ followersCount: 4, isFollowing: true });
  });

  it('blocking from a profile marks it blocked and ends the follow; unblocking clears the mark', async () => {
    mockApi.on('POST', '/block/block-user/u2', { body: { message: 'User blocked successfully' } });
    mockApi.on('POST', '/block/unblock', { body: { message: 'User unblocked successfully' } });
    const store = withList({ selectedUser: { ...profileOf(bob), followersCount: 4, isFollowing: true, blockedByYou: false } });
    await store.dispatch(blockUser({ userId: 'u2' }));
    expect(store.getState().users.selectedUser).toMatchObject({ blockedByYou: true, isFollowing: false, followersCount: 3 });
    await store.dispatch(unblockUser({ userId: 'u2' }));
    expect(store.getState().users.selectedUser?.blockedByYou).toBe(false);
  });
});

describe('activity', () => {
  const day = 24 * 60 * 60 * 1000;
  const entry = (id: string, daysAgo: number) => ({ _id: id, type: 'like', details: 'Liked', createdAt: new Date(Date.now() - daysAgo * day).toISOString() });

  it('is read newest first as the server gives it', async () => {
    mockApi.on('GET', '/user/activity/u1', { body: { activity: [entry('a', 0), entry('b', 2)] } });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchActivity('u1'));
    expect(store.getState().users.activity.map((a) => a._id)).toEqual(['a', 'b']);
    expect(store.getState().users.activityStatus).toBe('succeeded');
  });

  it("a failure says 'Failed to fetch activity'", async () => {
    mockApi.on('GET', '/user/activity/u1', { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchActivity('u1'));
    expect(store.getState().users).toMatchObject({ activityStatus: 'failed', error: 'Failed to fetch activity' });
  });

  it('a clear-old success keeps only the last 30 days', async () => {
    mockApi.on('DELETE', '/user/activity/clear-old', { body: { message: 'ok', deletedCount: 1 } });
    const store = setupStore({ auth: signedInAuth(), users: { ...initialUsersState, activity: [entry('new', 1), entry('edge', 29), entry('old', 31)] } });
    await store.dispatch(clearOldActivity());
    expect(store.getState().users.activity.map((a) => a._id)).toEqual(['new', 'edge']);
    expect(ACTIVITY_RETENTION_DAYS).toBe(30);
  });

  it('a clear-all success empties the activity', async () => {
    mockApi.on('DELETE', '/user/activity/clear', { body: { message: 'ok', deletedCount: 2 } });
    const store = setupStore({ auth: signedInAuth(), users: { ...initialUsersState, activity: [entry('a', 1)] } });
    await store.dispatch(clearActivity());
    expect(store.getState().users.activity).toEqual([]);
  });

  it("failed clears keep the activity and say 'Failed to clear activity' / 'Failed to clear old activity'", async () => {
    mockApi.on('DELETE', '/user/activity/clear', { status: 500 });
    mockApi.on('DELETE', '/user/activity/clear-old', { status: 500 });
    const store = setupStore({ auth: signedInAuth(), users: { ...initialUsersState, activity: [entry('a', 40)] } });
    await store.dispatch(clearActivity());
    expect(store.getState().users.error).toBe('Failed to clear activity');
    await store.dispatch(clearOldActivity());
    expect(store.getState().users.error).toBe('Failed to clear old activity');
    expect(store.getState().users.activity).toHaveLength(1);
  });
});

describe('own profile changes', () => {
  it('a saved name and avatar reach the top bar (auth), posts and comments without a reload', async () => {
    mockApi.on('PATCH', '/user/update-user', { body: { data: { _id: 'u1', name: 'Ada King', avatar: '/media/abc.png' } } });
    const store = setupStore({ auth: signedInAuth() });
    const post = { _id: 'p1', slug: 's', title: 'T', author: { _id: 'u1', name: 'Ada Lovelace' } };
    store.dispatch({ type: 'posts/fetchList/pending', meta: { arg: { list: 'latestPosts' }, requestId: 'r1' } });
    store.dispatch({ type: 'posts/fetchList/fulfilled', payload: { posts: [post], total: 1, page: 1 }, meta: { arg: { list: 'latestPosts' }, requestId: 'r1' } });
    await store.dispatch(updateCurrentUser({ name: 'Ada King', avatar: 'data:image/png;base64,xx' }));
    expect(store.getState().auth.user?.name).toBe('Ada King');
    expect(store.getState().users.profile?.avatar).toBe('/media/abc.png');
    expect(itemsOf(store.getState().posts.lists.latestPosts)[0].author).toMatchObject({ name: 'Ada King', avatar: '/media/abc.png' });
  });
});
