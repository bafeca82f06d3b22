import { setupStore } from '@/app/store';
import { initialAdminState } from '@/features/admin';
import { itemsOf, postItems } from '@/features/posts';
import { selectLocations } from '@/features/location';
import { selectNotificationList } from '@/features/notifications';
import { testPost } from '@/test/fixtures';
import { ADMIN_ROOM, loadSocketClient, RECONNECTION_ATTEMPTS, RECONNECTION_DELAY_MS, SOCKET_PATH, socketAuth, socketClientLoaded, unloadSocketClientForTests } from '@/lib/socket';
import { GUEST_ID_KEY, storage } from '@/lib/storage';
import { currentToasts, toast } from '@/lib/toast';
import { mockApi } from '@/test/mock-api';
import { guestAuth, mockAdminLoad, signedInAuth } from '@/test/render';
import { fakeSockets, lastFakeSocket } from '@/test/fake-socket';
import { coerceCount, tipReceivedFrom } from './socket-events';
import { NOTICE_TOAST_PREFIX, SOCKET_MESSAGES } from './socket-middleware';
import { initUserSocket, socketActions, socketConnectRequested, socketDisconnectRequested, socketUserLeft, socketReducer, initialSocketState, USER_NOT_READY } from './socket-slice';

const toastTexts = () => currentToasts().map((t) => t.message);

describe('socket status', () => {
  it('goes disconnected → connecting → connected, and back to disconnected on error or disconnect', () => {
    let state = socketReducer(initialSocketState, socketConnectRequested({ token: null }));
    expect(state.status).toBe('connecting');
    state = socketReducer(state, socketActions.connected());
    expect(state.status).toBe('connected');
    state = socketReducer(state, socketActions.connectFailed('boom'));
    expect(state).toMatchObject({ status: 'disconnected', error: 'boom' });
    state = socketReducer(socketReducer(state, socketActions.connected()), socketActions.disconnected());
    expect(state.status).toBe('disconnected');
  });

  it('coerces the online count to a number, default 0', () => {
    expect(coerceCount(3)).toBe(3);
    expect(coerceCount('4')).toBe(4);
    expect(coerceCount({ count: 2 })).toBe(2);
    expect(coerceCount(undefined)).toBe(0);
    expect(coerceCount('many')).toBe(0);
    expect(coerceCount(null)).toBe(0);
  });
});

describe('loading socket.io-client on demand', () => {
  it('is not loaded before the first request; the request loads it and then opens the socket', async () => {
    unloadSocketClientForTests();
    const store = setupStore();
    expect(socketClientLoaded()).toBe(false);
    store.dispatch(socketConnectRequested({ token: 'tok' }));
    expect(store.getState().socket.status).toBe('connecting');
    expect(fakeSockets).toHaveLength(0);
    await loadSocketClient();
    await Promise.resolve();
    expect(fakeSockets).toHaveLength(1);
    const sent: object[] = [];
    (lastFakeSocket().options as { auth: (cb: (d: object) => void) => void }).auth((d) => sent.push(d));
    expect(sent).toEqual([{ token: 'tok' }]);
  });

  it('opens only the latest request once loaded, and nothing when a disconnect came after it', async () => {
    unloadSocketClientForTests();
    const store = setupStore();
    store.dispatch(socketConnectRequested({ token: null }));
    store.dispatch(socketConnectRequested({ token: 'tok' }));
    await loadSocketClient();
    await Promise.resolve();
    expect(fakeSockets).toHaveLength(1);
    const sent: object[] = [];
    (lastFakeSocket().options as { auth: (cb: (d: object) => void) => void }).auth((d) => sent.push(d));
    expect(sent).toEqual([{ token: 'tok' }]);

    closeSocketAndForget(store);
    unloadSocketClientForTests();
    store.dispatch(socketConnectRequested({ token: 'tok' }));
    store.dispatch(socketDisconnectRequested());
    await loadSocketClient();
    await Promise.resolve();
    expect(fakeSockets).toHaveLength(1);
  });
});

function closeSocketAndForget(store: ReturnType<typeof setupStore>) {
  store.dispatch(socketDisconnectRequested());
  expect(fakeSockets[fakeSockets.length - 1].disconnected).toBe(true);
}

describe('socket middleware', () => {
  it('a guest sends the guest id the server issued in the handshake; a signed-in user sends the token only', () => {
    window.localStorage.removeItem(GUEST_ID_KEY);
    expect(socketAuth(null)).toEqual({});
    storage.set(GUEST_ID_KEY, 'abc-def');
    expect(socketAuth(null)).toEqual({ guestId: 'abc-def' });
    expect(socketAuth('tok')).toEqual({ token: 'tok' });
    window.localStorage.removeItem(GUEST_ID_KEY);
  });

  it('opens one socket: websocket then polling, /socket.io/, auth token, 5 attempts 2 s apart', () => {
    const store = setupStore();
    store.dispatch(socketConnectRequested({ token: 'tok' }));
    store.dispatch(socketConnectRequested({ token: 'tok' }));
    expect(fakeSockets).toHaveLength(1);
    expect(lastFakeSocket().options).toMatchObject({
      path: SOCKET_PATH,
      transports: ['websocket', 'polling'],
      reconnectionAttempts: RECONNECTION_ATTEMPTS,
      reconnectionDelay: RECONNECTION_DELAY_MS,
    });
    const sent: object[] = [];
    (lastFakeSocket().options as { auth: (cb: (d: object) => void) => void }).auth((d) => sent.push(d));
    expect(sent).toEqual([{ token: 'tok' }]);
    expect(SOCKET_PATH).toBe('/socket.io/');
    expect(RECONNECTION_ATTEMPTS).toBe(5);
    expect(RECONNECTION_DELAY_MS).toBe(2000);
    expect(store.getState().socket.status).toBe('connecting');
  });

  it('reopens the socket when the token changes', () => {
    const store = setupStore();
    store.dispatch(socketConnectRequested({ token: null }));
    store.dispatch(socketConnectRequested({ token: 'tok' }));
    expect(fakeSockets).toHaveLength(2);
    expect(fakeSockets[0].disconnected).toBe(true);
  });

  it('starts over when asked again after reconnection gave up', () => {
    const store = setupStore();
    store.dispatch(socketConnectRequested({ token: null }));
    const socket = lastFakeSocket();
    socket.active = false;
    store.dispatch(socketConnectRequested({ token: null }));
    expect(socket.connectCalls).toBe(1);
    expect(fakeSockets).toHaveLength(1);
  });

  it('never puts the socket object in the state', () => {
    const store = setupStore();
    store.dispatch(socketConnectRequested({ token: null }));
    lastFakeSocket().serverConnect();
    expect(JSON.parse(JSON.stringify(store.getState().socket))).toEqual(store.getState().socket);
    expect(store.getState().socket.status).toBe('connected');
  });

  it('joins the user room, and adminRoom for administrators, again after every reconnect', async () => {
    mockAdminLoad();
    const store = setupStore();
    store.dispatch(socketConnectRequested({ token: 'tok' }));
    const socket = lastFakeSocket();
    await store.dispatch(initUserSocket({ userId: 'a1', role: 'admin' }));
    expect(socket.emitted).toEqual([]);
    socket.serverConnect();
    expect(socket.emitted).toEqual([
      ['join', 'a1'],
      ['join', ADMIN_ROOM],
    ]);
    socket.fire('disconnect', 'transport close');
    socket.serverConnect();
    expect(socket.emitted).toHaveLength(4);
    // The administrators' area loads on demand, then asks for its first data.
    await vi.waitFor(() => expect(mockApi.calls('GET', '/admin/reports')).toHaveLength(1));
  });

  it('stops joining the rooms of a user who signed out', async () => {
    const store = setupStore();
    store.dispatch(socketConnectRequested({ token: 'tok' }));
    await store.dispatch(initUserSocket({ userId: 'u1', role: 'user' }));
    store.dispatch(socketUserLeft());
    store.dispatch(socketConnectRequested({ token: null }));
    lastFakeSocket().serverConnect();
    expect(lastFakeSocket().emitted).toEqual([]);
  });

  it('a plain user joins only its own room', async () => {
    const store = setupStore();
    store.dispatch(socketConnectRequested({ token: 'tok' }));
    lastFakeSocket().serverConnect();
    await store.dispatch(initUserSocket({ userId: 'u1', role: 'user' }));
    expect(lastFakeSocket().emitted).toEqual([['join', 'u1']]);
  });

  it("'User not ready' when initialised without a user id", async () => {
    const store = setupStore();
    const result = await store.dispatch(initUserSocket({ userId: null, role: null }));
    expect(result.payload).toBe(USER_NOT_READY);
    expect(USER_NOT_READY).toBe('User not ready');
    expect(store.getState().socket.error).toBe('User not ready');
  });

  it("shows 'Can't connect to server. Please try again.' at most once per 10 seconds", () => {
    vi.useFakeTimers();
    const errorToast = vi.spyOn(toast, 'error');
    const count = () => errorToast.mock.calls.filter(([text]) => text === SOCKET_MESSAGES.cannotConnect).length;
    try {
      const store = setupStore();
      store.dispatch(socketConnectRequested({ token: null }));
      const socket = lastFakeSocket();
      socket.fire('connect_error', new Error('xhr poll error'));
      socket.fire('connect_error', new Error('xhr poll error'));
      expect(count()).toBe(1);
      expect(store.getState().socket.status).toBe('disconnected');
      vi.advanceTimersByTime(9_999);
      socket.fire('connect_error', new Error('xhr poll error'));
      expect(count()).toBe(1);
      vi.advanceTimersByTime(1);
      socket.fire('connect_error', new Error('xhr poll error'));
      expect(count()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows 'Socket lost. Retrying...' at most once per 10 seconds, then 'Connected to server.'", () => {
    vi.useFakeTimers();
    try {
      const store = setupStore();
      store.dispatch(socketConnectRequested({ token: null }));
      const socket = lastFakeSocket();
      socket.serverConnect();
      expect(toastTexts()).not.toContain(SOCKET_MESSAGES.connected);
      const errorToast = vi.spyOn(toast, 'error');
      socket.fire('disconnect', 'transport close');
      socket.fire('disconnect', 'ping timeout');
      expect(errorToast.mock.calls.filter(([t]) => t === SOCKET_MESSAGES.lost)).toHaveLength(1);
      expect(store.getState().socket.status).toBe('disconnected');
      socket.serverConnect();
      expect(toastTexts()).toContain(SOCKET_MESSAGES.connected);
      vi.advanceTimersByTime(10_000);
      socket.fire('disconnect', 'transport close');
      expect(errorToast.mock.calls.filter(([t]) => t === SOCKET_MESSAGES.lost)).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says nothing when the app itself disconnects', () => {
    const store = setupStore();
    store.dispatch(socketConnectRequested({ token: null }));
    lastFakeSocket().fire('disconnect', 'io client disconnect');
    expect(toastTexts()).toEqual([]);
  });

  it('the toast texts match the spec', () => {
    expect(SOCKET_MESSAGES).toEqual({
      cannotConnect: "Can't connect to server. Please try again.",
      offline: 'Offline. Check your connection.',
      online: 'Back online.',
      lost: 'Socket lost. Retrying...',
      connected: 'Connected to server.',
    });
  });

  it('turns server events into state', () => {
    const store = setupStore();
    store.dispatch(socketConnectRequested({ token: null }));
    const socket = lastFakeSocket();
    socket.fire('onlineUsersCount', '7');
    expect(store.getState().socket.onlineCount).toBe(7);
    socket.fire('onlineUsersCount', 'nonsense');
    expect(store.getState().socket.onlineCount).toBe(0);
    socket.fire('updateUnreadCount', 3);
    expect(store.getState().notifications.unreadCount).toBe(3);
    socket.fire('newNotification', { _id: 'n1', type: 'like', read: false });
    expect(selectNotificationList(store.getState())[0]._id).toBe('n1');
    expect(store.getState().notifications.unreadCount).toBe(4);
    socket.fire('newBroadcastNotification', { _id: 'b1', title: 'T', message: 'M', region: 'global', isActive: true });
    expect(store.getState().banner.banners.map((b) => b._id)).toEqual(['b1']);
    socket.fire('broadcastNotificationDismissed', 'b1');
    expect(store.getState().banner.banners).toEqual([]);
    socket.fire('newBroadcastNotification', { _id: 'b2', title: 'T', message: 'M' });
    socket.fire('broadcastNotificationDeactivated', { id: 'b2' });
    expect(store.getState().banner.banners).toEqual([]);
    socket.fire('newBroadcastNotification', { _id: 'b3', title: 'T', message: 'M' });
    socket.fire('broadcastNotificationDeletedAll');
    expect(store.getState().banner.banners).toEqual([]);
    socket.fire('showFeedbackPrompt');
    expect(store.getState().feedback).toMatchObject({ shouldPrompt: true, promptMessage: "We'd love your feedback!" });
    socket.fire('showFeedbackPrompt', 'How was your week?');
    expect(store.getState().feedback.promptMessage).toBe('How was your week?');
    socket.fire('postCountsUpdated', { allPostsCount: 10, myPostsCount: 2 });
    expect(store.getState().posts.counts).toEqual({ allPostsCount: 10, myPostsCount: 2, followingPostsCount: 0 });
  });

  it('accepts the object payloads the server sends', () => {
    vi.useFakeTimers();
    const store = setupStore({ users: { ...setupStore().getState().users, online: { users: [{ _id: 'u1', name: 'A' }], guests: 0, count: 1, status: 'succeeded', error: null } } });
    store.dispatch(socketConnectRequested({ token: null }));
    const socket = lastFakeSocket();
    socket.fire('updateUnreadCount', { count: 2 });
    expect(store.getState().notifications.unreadCount).toBe(2);
    socket.fire('userStatus', { userId: 'u1', isOnline: false });
    expect(store.getState().users.online.users).toEqual([]);
    socket.fire('showFeedbackPrompt', { message: 'Quick question' });
    expect(store.getState().feedback.promptMessage).toBe('Quick question');
    socket.fire('newAppeal', { postId: 'p1', postTitle: 'T' });
    expect(toastTexts()).toContain('New appeal for post: T');
    socket.fire('userLocationUpdate', { userId: 'u1', coordinates: { lat: 1.5, lon: -2 }, city: 'Pune', country: 'India', countryCode: 'IN', state: 'MH', pincode: '411001' });
    socket.fire('guestVisitUpdate', { guestId: 'g1', visitCount: 2, lastVisit: '2024-01-01T00:00:00Z' });
    vi.advanceTimersByTime(1000);
    vi.useRealTimers();
    expect(selectLocations(store.getState())[0]).toMatchObject({ userId: 'u1', city: 'Pune', coordinates: { lat: 1.5, lon: -2 } });
    expect(store.getState().guest.visits).toHaveLength(1);
  });

  it("updates the open post on postBlockToggled for its author", () => {
    const store = setupStore({
      auth: signedInAuth(),
      posts: { ...setupStore().getState().posts, currentPost: testPost({ _id: 'p1', slug: 's', title: 'T', blocked: false, author: { _id: 'u1', name: 'Ada' } }) },
    });
    store.dispatch(socketConnectRequested({ token: null }));
    lastFakeSocket().fire('postBlockToggled', 'p1', true);
    expect(store.getState().posts.currentPost?.blocked).toBe(true);
    lastFakeSocket().fire('postBlockToggled', { postId: 'p1', blocked: false });
    expect(store.getState().posts.currentPost?.blocked).toBe(false);
  });

  it('takes a blocked post away from a reader who may no longer see it', () => {
    const post = testPost({ _id: 'p1', slug: 's', title: 'T', blocked: false, author: { _id: 'someone', name: 'Sam' } });
    const base = setupStore().getState().posts;
    const store = setupStore({
      auth: signedInAuth(),
      posts: { ...base, currentPost: post, currentStatus: 'succeeded', lists: { ...base.lists, latestPosts: { ...base.lists.latestPosts, items: postItems([post]), total: 1 } } },
    });
    store.dispatch(socketConnectRequested({ token: null }));
    lastFakeSocket().fire('postBlockToggled', 'p1', true);
    expect(store.getState().posts.currentPost).toBeNull();
    expect(store.getState().posts.error).toBe('Post not found');
    expect(itemsOf(store.getState().posts.lists.latestPosts)).toEqual([]);
  });

  it("announces a new appeal to administrators as 'New appeal for post: {title}'", () => {
    const store = setupStore();
    store.dispatch(socketConnectRequested({ token: 'admin' }));
    lastFakeSocket().fire('newAppeal', 'p1', 'My Post');
    expect(toastTexts()).toContain('New appeal for post: My Post');
  });

  it('passes on appealDecided(appealId, status) to the administrators\' state, in either form', () => {
    const admin = initialAdminState();
    admin.overview.data = { online: { count: 1, users: 1, guests: 0 }, today: { since: '', signups: 0, posts: 0, reports: 0, contactMessages: 0 }, unreadContactMessages: 0, openReports: 0, pendingAppeals: 3, totals: { users: 1, posts: 0 } };
    const store = setupStore({ admin });
    store.dispatch(socketConnectRequested({ token: 'admin' }));
    lastFakeSocket().fire('appealDecided', 'ap1', 'accepted');
    lastFakeSocket().fire('appealDecided', { appealId: 'ap2', status: 'rejected' });
    lastFakeSocket().fire('appealDecided', '', 'accepted');
    expect(store.getState().admin.appeals.changes).toBe(2);
    expect(store.getState().admin.overview.data?.pendingAppeals).toBe(1);
  });
});

describe('incoming location and guest-visit events', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const at = (userId: string, lat: number) => ({ userId, coordinates: { lat, lon: 1 }, city: 'C', country: 'X', state: 'S', pincode: '1' });

  it('are debounced by 1 second: the latest per user or guest is applied once', () => {
    vi.useFakeTimers();
    const store = setupStore();
    store.dispatch(socketConnectRequested({ token: 'admin' }));
    const socket = lastFakeSocket();
    socket.fire('userLocationUpdate', at('u1', 1));
    socket.fire('guestVisitUpdate', { guestId: 'g1', visitCount: 1, lastVisit: '2024-01-01T00:00:00Z' });
    vi.advanceTimersByTime(300);
    socket.fire('userLocationUpdate', at('u1', 2));
    socket.fire('userLocationUpdate', at('u2', 5));
    socket.fire('guestVisitUpdate', { guestId: 'g1', visitCount: 2, lastVisit: '2024-01-01T00:00:01Z' });
    vi.advanceTimersByTime(600);
    expect(selectLocations(store.getState())).toEqual([]);
    expect(store.getState().guest.visits).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(selectLocations(store.getState()).map((l) => [l.userId, l.coordinates.lat])).toEqual([
      ['u2', 5],
      ['u1', 2],
    ]);
    expect(store.getState().guest.visits.map((v) => v.visitCount)).toEqual([2]);
  });

  it('are dropped with the socket when it closes before the second is up', () => {
    vi.useFakeTimers();
    const store = setupStore();
    store.dispatch(socketConnectRequested({ token: 'admin' }));
    lastFakeSocket().fire('userLocationUpdate', at('u1', 1));
    store.dispatch(socketDisconnectRequested());
    vi.advanceTimersByTime(2000);
    expect(selectLocations(store.getState())).toEqual([]);
  });
});

describe('postCountsUpdated', () => {
  it('sets the counts that are present and keeps the others', () => {
    const store = setupStore();
    store.dispatch(socketConnectRequested({ token: null }));
    lastFakeSocket().fire('postCountsUpdated', { allPostsCount: 10, myPostsCount: 2, followingPostsCount: 4 });
    lastFakeSocket().fire('postCountsUpdated', { allPostsCount: 11 });
    expect(store.getState().posts.counts).toEqual({ allPostsCount: 11, myPostsCount: 2, followingPostsCount: 4 });
    lastFakeSocket().fire('postCountsUpdated', { followingPostsCount: '5', myPostsCount: 'many' });
    expect(store.getState().posts.counts).toEqual({ allPostsCount: 11, myPostsCount: 2, followingPostsCount: 5 });
  });

  it('refetches the counts when the event carries none of them', async () => {
    mockApi.on('GET', '/post/count/all', { body: { count: 42 } });
    mockApi.on('GET', '/post/count/my', { body: { count: 3 } });
    mockApi.on('GET', '/post/count/following', { body: { count: 7 } });
    const store = setupStore({ auth: signedInAuth() });
    store.dispatch(socketConnectRequested({ token: 'token-1' }));
    lastFakeSocket().fire('postCountsUpdated', {});
    await vi.waitFor(() => expect(store.getState().posts.counts).toEqual({ allPostsCount: 42, myPostsCount: 3, followingPostsCount: 7 }));
  });

  it('refetches only the public count for a guest', async () => {
    mockApi.on('GET', '/post/count/all', { body: { count: 9 } });
    const store = setupStore({ auth: guestAuth() });
    store.dispatch(socketConnectRequested({ token: null }));
    lastFakeSocket().fire('postCountsUpdated');
    await vi.waitFor(() => expect(store.getState().posts.counts.allPostsCount).toBe(9));
    expect(mockApi.calls('GET', '/post/count/my')).toHaveLength(0);
  });
});

describe('newBroadcastNotification', () => {
  it('shows only banners (a title and a message) as banners, never an administrator notice', () => {
    const store = setupStore({ auth: signedInAuth() });
    store.dispatch(socketConnectRequested({ token: 'token-1' }));
    const socket = lastFakeSocket();
    socket.fire('newBroadcastNotification', { _id: 'n1', type: 'admin', broadcast: true, content: 'Maintenance tonight', read: false, createdAt: '2024-01-01T00:00:00Z' });
    socket.fire('newBroadcastNotification', { type: 'admin', broadcast: true, content: 'No id either' });
    socket.fire('newBroadcastNotification', { _id: 'b0', title: 'Only a title' });
    expect(store.getState().banner.banners).toEqual([]);
    expect(selectNotificationList(store.getState())).toEqual([]);
    socket.fire('newBroadcastNotification', { _id: 'b1', title: 'T', message: 'M' });
    expect(store.getState().banner.banners.map((b) => b._id)).toEqual(['b1']);
  });
});

describe('adminNoticeBroadcast', () => {
  it('announces an administrator notice in a toast and never as a banner', () => {
    const store = setupStore({ auth: signedInAuth() });
    store.dispatch(socketConnectRequested({ token: 'token-1' }));
    const socket = lastFakeSocket();
    socket.fire('adminNoticeBroadcast', { _id: 'n1', type: 'admin', broadcast: true, content: 'Maintenance tonight', read: false, createdAt: '2024-01-01T00:00:00Z' });
    socket.fire('adminNoticeBroadcast', { _id: 'n2', title: 'T', message: 'M' });
    expect(store.getState().banner.banners).toEqual([]);
    expect(toastTexts()).toContain(`${NOTICE_TOAST_PREFIX}Maintenance tonight`);
    expect(toastTexts().filter((t) => t.startsWith(NOTICE_TOAST_PREFIX))).toHaveLength(1);
  });
});

describe('tipReceived', () => {
  it("raises the writer's toast (who, how much, the message); ignores what is not a tip", () => {
    const store = setupStore({ auth: signedInAuth() });
    store.dispatch(socketConnectRequested({ token: 'token-1' }));
    const socket = lastFakeSocket();
    socket.fire('tipReceived', { tipId: 't1', postId: 'p1', amount: 500, currency: 'usd', from: { id: 'r1', name: 'Ana' }, message: 'Thanks!' });
    socket.fire('tipReceived', { tipId: 't2', postId: 'p1', amount: 1250, currency: 'usd', from: null, message: null });
    socket.fire('tipReceived', 'not a tip');
    socket.fire('tipReceived', { postId: 'p1', amount: 5 });
    expect(toastTexts()).toEqual(['Ana tipped you $5.00: “Thanks!”', 'A reader tipped you $12.50']);
  });

  it('reads the event into a TipReceived', () => {
    expect(tipReceivedFrom({ tipId: 't1', postId: 'p1', amount: '700', currency: 'eur', from: { id: 'r1', name: 'Ana' }, message: '  ' })).toEqual({
      tipId: 't1',
      postId: 'p1',
      amount: 700,
      currency: 'eur',
      from: { id: 'r1', name: 'Ana' },
      message: null,
    });
    expect(tipReceivedFrom(null)).toBeNull();
    expect(tipReceivedFrom({ tipId: 't1', amount: 'many' })).toBeNull();
  });
});
