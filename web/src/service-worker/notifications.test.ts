// The service worker's push and notificationclick handlers, over a fake worker scope.
import {
  GENERIC_NOTIFICATION,
  handleNotificationClick,
  handlePush,
  NOTIFICATION_ICON,
  readPush,
  targetUrl,
  type WindowClientLike,
  type WorkerScope,
} from './notifications';

const ORIGIN = 'https://pressroom.example';

function data(text: string) {
  return { text: () => text };
}

function fakeClient(url: string, { controlled = true } = {}) {
  const client = {
    url,
    focus: vi.fn(() => Promise.resolve(client)),
    navigate: vi.fn((to: string) => Promise.resolve(controlled ? { ...client, url: to } : null)),
  };
  return client;
}

function fakeScope(windows: WindowClientLike[] = [], { badges = true } = {}) {
  const scope = {
    location: { origin: ORIGIN },
    registration: { showNotification: vi.fn(() => Promise.resolve()) },
    clients: {
      matchAll: vi.fn(() => Promise.resolve(windows)),
      openWindow: vi.fn(() => Promise.resolve(null)),
    },
    navigator: badges ? { setAppBadge: vi.fn(() => Promise.resolve()), clearAppBadge: vi.fn(() => Promise.resolve()) } : {},
  };
  return scope satisfies WorkerScope;
}

function fakeNotification(url: unknown) {
  return { data: { url }, close: vi.fn() };
}

describe('reading a push', () => {
  it('takes the title, body, url, tag and badge of the JSON payload', () => {
    const payload = readPush(data(JSON.stringify({ title: 'Ada liked your post', body: '“On engines”', url: '/post/on-engines', tag: 'like:p1', badge: 3 })));
    expect(payload).toEqual({ title: 'Ada liked your post', body: '“On engines”', url: '/post/on-engines', tag: 'like:p1', badge: 3 });
  });

  it('shows the generic notification for a push without data, with text that is not JSON, or without a title', () => {
    expect(readPush(null)).toEqual(GENERIC_NOTIFICATION);
    expect(readPush(data('You have mail'))).toEqual(GENERIC_NOTIFICATION);
    expect(readPush(data('"just a string"'))).toEqual(GENERIC_NOTIFICATION);
    expect(readPush(data(JSON.stringify({ body: 'no title' })))).toEqual(GENERIC_NOTIFICATION);
  });

  it('leaves out a badge that is not a count, and opens the home page when the url is missing', () => {
    expect(readPush(data(JSON.stringify({ title: 'T', badge: 'three' })))).toEqual({ title: 'T', body: '', url: '/', tag: undefined, badge: undefined });
    expect(readPush(data(JSON.stringify({ title: 'T', badge: -1 }))).badge).toBeUndefined();
  });
});

describe('the address a notification opens', () => {
  it('is the path on the site', () => {
    expect(targetUrl('/post/on-engines', ORIGIN)).toBe(`${ORIGIN}/post/on-engines`);
    expect(targetUrl('/message-box?id=n1', ORIGIN)).toBe(`${ORIGIN}/message-box?id=n1`);
  });

  it('never leads off the site', () => {
    expect(targetUrl('https://evil.example/phish', ORIGIN)).toBe(`${ORIGIN}/`);
    expect(targetUrl('//evil.example/phish', ORIGIN)).toBe(`${ORIGIN}/`);
    expect(targetUrl('javascript:alert(1)', ORIGIN)).toBe(`${ORIGIN}/`);
    expect(targetUrl(undefined, ORIGIN)).toBe(`${ORIGIN}/`);
  });
});

describe('the push event', () => {
  it('shows the notification with its tag, the url in its data, the icon, and does not alert again for a replaced one', async () => {
    const scope = fakeScope();
    await handlePush(scope, data(JSON.stringify({ title: 'New comment', body: 'Grace: nice', url: '/post/a', tag: 'comment:p1', badge: 2 })));
    expect(scope.registration.showNotification).toHaveBeenCalledWith('New comment', {
      body: 'Grace: nice',
      tag: 'comment:p1',
      data: { url: '/post/a' },
      icon: NOTIFICATION_ICON,
      badge: NOTIFICATION_ICON,
      renotify: false,
    });
  });

  it('puts the unread count on the app icon, and clears it at zero', async () => {
    const scope = fakeScope();
    await handlePush(scope, data(JSON.stringify({ title: 'T', body: 'B', url: '/', badge: 4 })));
    expect(scope.navigator.setAppBadge).toHaveBeenCalledWith(4);
    await handlePush(scope, data(JSON.stringify({ title: 'T', body: 'B', url: '/', badge: 0 })));
    expect(scope.navigator.clearAppBadge).toHaveBeenCalledTimes(1);
  });

  it('shows the notification where the browser has no app badge, or the badge fails', async () => {
    const without = fakeScope([], { badges: false });
    await handlePush(without, data(JSON.stringify({ title: 'T', badge: 1 })));
    expect(without.registration.showNotification).toHaveBeenCalledTimes(1);

    const failing = fakeScope();
    failing.navigator.setAppBadge = vi.fn(() => Promise.reject(new Error('not allowed')));
    await handlePush(failing, data(JSON.stringify({ title: 'T', badge: 1 })));
    expect(failing.registration.showNotification).toHaveBeenCalledTimes(1);
  });

  it('shows a generic "Pressroom" notification for a push without JSON', async () => {
    const scope = fakeScope();
    await handlePush(scope, null);
    expect(scope.registration.showNotification).toHaveBeenCalledWith('Pressroom', expect.objectContaining({ body: GENERIC_NOTIFICATION.body, data: { url: '/message-box' } }));
    expect(scope.navigator.setAppBadge).not.toHaveBeenCalled();
  });
});

describe('a click on the notification', () => {
  it('closes it and focuses the window already at its address', async () => {
    const home = fakeClient(`${ORIGIN}/`);
    const post = fakeClient(`${ORIGIN}/post/a`);
    const scope = fakeScope([home, post]);
    const notification = fakeNotification('/post/a');
    await handleNotificationClick(scope, notification);
    expect(notification.close).toHaveBeenCalled();
    expect(post.focus).toHaveBeenCalled();
    expect(home.focus).not.toHaveBeenCalled();
    expect(scope.clients.openWindow).not.toHaveBeenCalled();
    expect(scope.clients.matchAll).toHaveBeenCalledWith({ type: 'window', includeUncontrolled: true });
  });

  it('focuses another window of the site and sends it to the address', async () => {
    const other = fakeClient(`${ORIGIN}/`);
    const scope = fakeScope([fakeClient('https://elsewhere.example/'), other]);
    await handleNotificationClick(scope, fakeNotification('/post/a'));
    expect(other.focus).toHaveBeenCalled();
    expect(other.navigate).toHaveBeenCalledWith(`${ORIGIN}/post/a`);
    expect(scope.clients.openWindow).not.toHaveBeenCalled();
  });

  it('opens a new window when the site has none, or the one it has cannot be sent elsewhere', async () => {
    const none = fakeScope([]);
    await handleNotificationClick(none, fakeNotification('/message-box'));
    expect(none.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/message-box`);

    const uncontrolled = fakeClient(`${ORIGIN}/`, { controlled: false });
    const scope = fakeScope([uncontrolled]);
    await handleNotificationClick(scope, fakeNotification('/post/a'));
    expect(scope.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/post/a`);
  });

  it('opens the site itself for an address elsewhere', async () => {
    const scope = fakeScope([]);
    await handleNotificationClick(scope, fakeNotification('https://evil.example/'));
    expect(scope.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/`);
  });
});

describe('a click without the user activation to focus', () => {
  it('still sends the window to the address', async () => {
    const other = fakeClient(`${ORIGIN}/`);
    other.focus = vi.fn(() => Promise.reject(new DOMException('Not allowed to focus a window.', 'InvalidAccessError')));
    const scope = fakeScope([other]);
    await handleNotificationClick(scope, fakeNotification('/post/a'));
    expect(other.navigate).toHaveBeenCalledWith(`${ORIGIN}/post/a`);
  });
});
