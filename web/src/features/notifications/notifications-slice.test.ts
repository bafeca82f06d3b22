import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { signedInAuth, testAdmin } from '@/test/render';
import { socketEvents } from '@/features/socket';
import type { UserNotification } from '@/types/entities';
import {
  deleteNotification,
  fetchNotifications,
  fetchUserHistory,
  initialNotificationsState,
  markAllNotificationsRead,
  markNotificationRead,
  notificationList,
  notificationsReducer,
  replyToNotification,
  selectNotificationList,
  sendAdminNotice,
  broadcastNotice,
} from './notifications-slice';
import { notificationLink, notificationText } from './notification-text';

/** The dropdown's list of a notifications state, newest first. */
const listOf = (state: typeof initialNotificationsState) => selectNotificationList({ notifications: state });

const n = (id: string, over: Partial<UserNotification> = {}): UserNotification => ({ _id: id, type: 'like', read: false, content: '', createdAt: '2026-01-01T00:00:00Z', user: 'u1', ...over });

describe('notifications state', () => {
  it('a realtime arrival goes to the front and raises the unread count if unread', () => {
    let state = notificationsReducer(initialNotificationsState, socketEvents.notificationReceived(n('a')));
    state = notificationsReducer(state, socketEvents.notificationReceived(n('b', { read: true })));
    expect(listOf(state).map((x) => x._id)).toEqual(['b', 'a']);
    expect(state.unreadCount).toBe(1);
  });

  it('cuts the list to the first 50 when it exceeds 100', () => {
    let state = { ...initialNotificationsState, list: notificationList(Array.from({ length: 100 }, (_, i) => n(`old${i}`, { read: true }))) };
    state = notificationsReducer(state, socketEvents.notificationReceived(n('new')));
    expect(listOf(state)).toHaveLength(50);
    expect(listOf(state)[0]._id).toBe('new');
  });

  it("mark-read takes the server's count, even when the server's live push came first", async () => {
    mockApi.on('PATCH', /^\/api\/notification\/mark-as-read\//, { body: { notification: {} } });
    mockApi.on('GET', '/notification/unread-count', { body: { count: 1 } });
    const store = setupStore({ auth: signedInAuth(), notifications: { ...initialNotificationsState, list: notificationList([n('a'), n('b')]), unreadCount: 2 } });
    const done = store.dispatch(markNotificationRead('a'));
    // The server pushes updateUnreadCount(1) before its HTTP answer arrives.
    store.dispatch(socketEvents.unreadCountUpdated(1));
    await done;
    expect(store.getState().notifications.unreadCount).toBe(1);
  });

  it('mark-read lowers the count by 1, never below 0, when the server count cannot be read', async () => {
    mockApi.on('GET', '/notification/unread-count', { status: 503 });
    mockApi.on('PATCH', /^\/api\/notification\/mark-as-read\//, { body: { notification: {} } });
    const store = setupStore({ auth: signedInAuth(), notifications: { ...initialNotificationsState, list: notificationList([n('a')]), unreadCount: 1 } });
    await store.dispatch(markNotificationRead('a'));
    expect(store.getState().notifications.unreadCount).toBe(0);
    expect(listOf(store.getState().notifications)[0].read).toBe(true);
    await store.dispatch(markNotificationRead('a'));
    expect(store.getState().notifications.unreadCount).toBe(0);
  });

  it("mark-read and delete need a real id, else 'Invalid notification ID'", async () => {
    const store = setupStore({ auth: signedInAuth() });
    for (const id of ['', 'undefined']) {
      expect((await store.dispatch(markNotificationRead(id))).payload).toBe('Invalid notification ID');
      expect((await store.dispatch(deleteNotification(id))).payload).toBe('Invalid notification ID');
    }
  });

  it('mark-all sets all as read and the count to 0', async () => {
    mockApi.on('PATCH', '/notification/mark-all-as-read', { body: {} });
    const store = setupStore({ notifications: { ...initialNotificationsState, list: notificationList([n('a'), n('b')]), unreadCount: 2 } });
    await store.dispatch(markAllNotificationsRead());
    expect(store.getState().notifications.unreadCount).toBe(0);
    expect(listOf(store.getState().notifications).every((x) => x.read)).toBe(true);
  });

  it("delete removes the item and recounts unread from the server's count", async () => {
    mockApi.on('DELETE', '/notification/a', { body: { message: 'deleted' } });
    mockApi.on('GET', '/notification/unread-count', { body: { count: 7 } });
    const store = setupStore({ notifications: { ...initialNotificationsState, list: notificationList([n('a'), n('b'), n('c', { read: true })]), unreadCount: 9 } });
    await store.dispatch(deleteNotification('a'));
    expect(listOf(store.getState().notifications).map((x) => x._id)).toEqual(['b', 'c']);
    expect(store.getState().notifications.unreadCount).toBe(7);
  });

  it('deleting from the inbox while the dropdown list is empty keeps the other unread ones counted', async () => {
    // The dropdown is filled only when the bell opens: a recount from it would give 0.
    mockApi.on('DELETE', '/notification/a', { body: { message: 'deleted' } });
    mockApi.on('GET', '/notification/unread-count', { status: 500, body: { message: 'down' } });
    const inbox = { ...initialNotificationsState.inbox, status: 'succeeded' as const, list: [n('a'), n('b'), n('c')], total: 3 };
    const store = setupStore({ notifications: { ...initialNotificationsState, list: notificationList([]), unreadCount: 5, inbox } });
    await store.dispatch(deleteNotification('a'));
    expect(store.getState().notifications.inbox.list.map((x) => x._id)).toEqual(['b', 'c']);
    expect(store.getState().notifications.unreadCount).toBe(4);
  });

  it("fetching needs a signed-in user, else 'User not authenticated'", async () => {
    const store = setupStore();
    expect((await store.dispatch(fetchNotifications())).payload).toBe('User not authenticated');
  });

  it('fetches page 1 with limit 20 and appends later pages without duplicates', async () => {
    mockApi.on('GET', '/notification/notifications', (req) =>
      req.url.searchParams.get('page') === '1'
        ? { body: { notifications: [n('a'), n('b')], total: 3 } }
        : { body: { notifications: [n('b'), n('c')], total: 3 } },
    );
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchNotifications({ page: 1 }));
    await store.dispatch(fetchNotifications({ page: 2 }));
    expect(listOf(store.getState().notifications).map((x) => x._id)).toEqual(['a', 'b', 'c']);
    expect(mockApi.calls('GET', '/notification/notifications')[0].url.searchParams.get('limit')).toBe('20');
  });

  it("a failed fetch shows 'Failed to fetch notifications'", async () => {
    mockApi.on('GET', '/notification/notifications', { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchNotifications());
    expect(store.getState().notifications.error).toBe('Failed to fetch notifications');
  });

  it('an administrator notice joins the local list only when the administrator is the addressee', async () => {
    mockApi.on('POST', '/notification/admin', (req) => ({
      body: { notification: n(`to-${(req.body as { userId: string }).userId}`, { type: 'admin' }) },
    }));
    const store = setupStore({ auth: signedInAuth({ user: testAdmin, role: 'admin' }) });
    await store.dispatch(sendAdminNotice({ userId: 'someone', content: 'hi' }));
    expect(listOf(store.getState().notifications)).toEqual([]);
    await store.dispatch(sendAdminNotice({ userId: 'a1', content: 'hi' }));
    expect(listOf(store.getState().notifications).map((x) => x._id)).toEqual(['to-a1']);
  });

  it('validates the admin notice, broadcast, reply and history inputs', async () => {
    const store = setupStore({ auth: signedInAuth() });
    expect((await store.dispatch(sendAdminNotice({ userId: '', content: 'x' }))).payload).toBe('Missing userId or content');
    expect((await store.dispatch(broadcastNotice({ content: '' }))).payload).toBe('Content is required');
    expect((await store.dispatch(replyToNotification({ notificationId: 'x', content: '' }))).payload).toBe(
      'Missing notificationId or content',
    );
    expect((await store.dispatch(fetchUserHistory(''))).payload).toBe('Missing userId');
  });

  it('a reply adds the returned notification at the front', async () => {
    mockApi.on('POST', '/notification/reply', { body: { notification: n('r', { type: 'admin_reply', read: true }) } });
    const store = setupStore({ auth: signedInAuth(), notifications: { ...initialNotificationsState, list: notificationList([n('a')]) } });
    await store.dispatch(replyToNotification({ notificationId: 'a', content: 'thanks' }));
    expect(listOf(store.getState().notifications).map((x) => x._id)).toEqual(['r', 'a']);
  });
});

describe('notification text and links', () => {
  it('reads admin types as Admin: {content or No message}', () => {
    expect(notificationText(n('1', { type: 'admin', content: 'Hello' }))).toBe('Admin: Hello');
    expect(notificationText(n('1', { type: 'admin_reply' }))).toBe('Admin: No message');
  });

  it.each([
    ['like', 'liked'],
    ['bookmark', 'bookmarked'],
    ['comment', 'commented on'],
    ['reply', 'replied to'],
  ])('reads %s as "{sender} %s your post"', (type, verb) => {
    expect(notificationText(n('1', { type: type as UserNotification['type'], sender: { _id: 's1', name: 'Bo' }, post: { _id: 'p1', title: 'Rust' } }))).toBe(`Bo ${verb} your post "Rust"`);
  });

  it('reads new_post as {author} published "{title}" and leads to the post', () => {
    const item = n('1', { type: 'new_post', sender: { _id: 's1', name: 'Ada' }, post: { _id: 'p1', title: 'Tides' }, navigateTo: '/post/tides', content: 'Ada published "Tides"' });
    expect(notificationText(item)).toBe('Ada published "Tides"');
    expect(notificationLink(item)).toBe('/post/tides');
  });

  it("reads a tip as the server's line, or {sender} tipped you for \"{title}\"", () => {
    const item = n('1', { type: 'tip', sender: { _id: 's1', name: 'Ana' }, post: { _id: 'p1', title: 'Tides' }, navigateTo: '/post/tides', content: "Ana tipped $5 on 'Tides': 'Thanks!'" });
    expect(notificationText(item)).toBe("Ana tipped $5 on 'Tides': 'Thanks!'");
    expect(notificationText({ ...item, content: '' })).toBe('Ana tipped you for "Tides"');
    expect(notificationLink(item)).toBe('/post/tides');
  });

  it('uses User, unknown and an optional ": content"', () => {
    expect(notificationText(n('1', { type: 'comment', content: 'Nice!' }))).toBe('User commented on your post "unknown": Nice!');
  });

  it('links to navigateTo, else the inbox by kind', () => {
    expect(notificationLink(n('1', { navigateTo: '/post/x' }))).toBe('/post/x');
    expect(notificationLink(n('1', { type: 'admin' }))).toBe('/message-box?type=admin');
    expect(notificationLink(n('1', { type: 'admin_reply' }))).toBe('/message-box?type=admin');
    expect(notificationLink(n('42', { type: 'like' }))).toBe('/message-box?type=post&id=42');
  });
});
