import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { signedInAuth, testAdmin } from '@/test/render';
import { initUserSocket, socketEvents } from '@/features/socket';
import { ADMIN_FALLBACK, SERVER_UNAVAILABLE } from './admin-api';
import type { AdminAppeal, AdminPost, AdminUser, ContactMessage, Overview, Plan, Report } from './admin-types';
import {
  adminReducer,
  checkUserEligibility,
  createBannerNotification,
  decideAppeal,
  deactivateBannerNotification,
  deleteAllBannerNotifications,
  deletePost,
  deleteUser,
  dismissBannerNotification,
  fetchAppeals,
  fetchBannerNotifications,
  fetchContactMessages,
  fetchCriteria,
  fetchEmailReports,
  fetchEmailStatuses,
  fetchPlans,
  fetchPosts,
  fetchReports,
  fetchRetryJob,
  fetchSiteAnalytics,
  fetchUserEarnings,
  fetchUsers,
  initialAdminState,
  LIVE_LIST_CAP,
  messageSaysAdmin,
  messageSaysBlocked,
  milestonesCleared,
  overrideMilestones,
  processPayouts,
  replyToContact,
  resetMilestones,
  retryFailedEmails,
  reviewReport,
  toggleBlockPost,
  toggleBlockUser,
  toggleMessageHandled,
  togglePlanStatus,
  toggleUserEligibility,
  toggleUserRole,
  totalPagesOf,
  updateCriteria,
  type AdminState,
} from './admin-slice';
import { isRetryable, RETRY_ATTEMPTS, RETRY_DELAY_MS, withRetry } from './retry';
import { ApiError } from '@/lib/http';

const user = (id: string, over: Partial<AdminUser> = {}): AdminUser => ({
  _id: id,
  name: id,
  email: `${id}@x.io`,
  role: 'user',
  blocked: false,
  isAccountVerified: true,
  totalPosts: 0,
  isEligibleForSubscription: false,
  bypassSubscriptionCriteria: false,
  milestoneOverride: {},
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...over,
});
const post = (id: string, over: Partial<AdminPost> = {}): AdminPost => ({
  _id: id,
  title: id,
  slug: id,
  blocked: false,
  author: { _id: 'a1', name: 'A' },
  authorName: 'A',
  status: 'published',
  visibility: 'Public',
  views: 0,
  likesCount: 0,
  commentsCount: 0,
  bookmarksCount: 0,
  shareCount: 0,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...over,
});
const contact = (id: string, over: Partial<ContactMessage> = {}): ContactMessage => ({
  _id: id,
  name: 'N',
  email: 'n@x.io',
  subject: 's',
  message: 'm',
  isHandled: false,
  createdAt: '2026-01-01T00:00:00Z',
  ...over,
});
const report = (id: string, over: Partial<Report> = {}): Report => ({
  _id: id,
  post: { _id: 'p', title: 'T', slug: 't' },
  postId: 'p',
  postTitle: 'T',
  author: { _id: 'a1', name: 'A', email: 'a@x.io' },
  reason: 'spam',
  details: '',
  isReviewed: false,
  forwardedToAuthor: false,
  isAcknowledged: false,
  noticesSent: 0,
  editedSince: false,
  postDeleted: false,
  createdAt: '2026-01-01T00:00:00Z',
  ...over,
});
const appeal = (id: string, over: Partial<AdminAppeal> = {}): AdminAppeal => ({
  _id: id,
  postId: 'p',
  postTitle: 'T',
  postSlug: 't',
  author: { _id: 'a1', name: 'A', email: null },
  message: 'Please',
  status: 'pending',
  createdAt: '2026-01-01T00:00:00Z',
  decidedAt: null,
  decidedBy: null,
  reply: null,
  revisionId: 'r1',
  editedSince: false,
  postBlocked: true,
  ...over,
});
const overview = (): Overview => ({
  online: { count: 1, users: 1, guests: 0 },
  today: { since: '2026-01-01T00:00:00Z', signups: 0, posts: 0, reports: 0, contactMessages: 0 },
  unreadContactMessages: 0,
  openReports: 0,
  pendingAppeals: 0,
  totals: { users: 1, posts: 0 },
});

function adminStore(over: (s: AdminState) => void = () => {}) {
  const admin = initialAdminState();
  over(admin);
  return setupStore({ auth: signedInAuth({ user: testAdmin }), admin });
}
type AdminStore = ReturnType<typeof adminStore>;

describe('admin rules of seed 001 §4', () => {
  it('reads the outcome of a block from the word blocked, and of a role toggle from admin', () => {
    expect(messageSaysBlocked('User blocked')).toBe(true);
    expect(messageSaysBlocked('Post blocked')).toBe(true);
    expect(messageSaysBlocked('User is active again')).toBe(false);
    expect(messageSaysBlocked('Post restored')).toBe(false);
    expect(messageSaysBlocked('User unblocked')).toBe(false);
    expect(messageSaysAdmin('User promoted to admin')).toBe(true);
    expect(messageSaysAdmin('User is now a regular user')).toBe(false);
  });

  it('computes total pages as the ceiling of total divided by 10', () => {
    expect(totalPagesOf(0)).toBe(0);
    expect(totalPagesOf(10)).toBe(1);
    expect(totalPagesOf(11)).toBe(2);
    expect(totalPagesOf(20)).toBe(2);
  });
});

describe('the retry helper (2 attempts, 1000 ms apart)', () => {
  it('tries twice, waiting 1000 ms between, then gives the last error', async () => {
    const waits: number[] = [];
    const run = vi.fn().mockRejectedValue(new ApiError('down', 503));
    await expect(withRetry(run, { wait: (ms) => Promise.resolve(void waits.push(ms)) })).rejects.toThrow('down');
    expect(run).toHaveBeenCalledTimes(RETRY_ATTEMPTS);
    expect(waits).toEqual([RETRY_DELAY_MS]);
    expect(RETRY_ATTEMPTS).toBe(2);
    expect(RETRY_DELAY_MS).toBe(1000);
  });

  it('answers the second try when it succeeds, and does not retry a 4xx', async () => {
    const run = vi.fn().mockRejectedValueOnce(new ApiError('net', 0)).mockResolvedValueOnce('ok');
    await expect(withRetry(run, { wait: async () => {} })).resolves.toBe('ok');
    const refused = vi.fn().mockRejectedValue(new ApiError('no', 403));
    await expect(withRetry(refused, { wait: async () => {} })).rejects.toThrow('no');
    expect(refused).toHaveBeenCalledTimes(1);
    expect(isRetryable(new ApiError('x', 502))).toBe(true);
    expect(isRetryable(new ApiError('x', 404))).toBe(false);
  });
});

describe('users', () => {
  it('lists a page with its totals and remembers the query', async () => {
    mockApi.on('GET', '/admin/users', (req) => {
      expect(req.url.searchParams.get('limit')).toBe('10');
      expect(req.url.searchParams.get('search')).toBe('ada');
      expect(req.url.searchParams.get('sortField')).toBe('email');
      return { body: { users: [user('a')], totalUsers: 11, totalPages: 2, page: 2 } };
    });
    const store = adminStore();
    await store.dispatch(fetchUsers({ page: 2, search: 'ada', sortField: 'email', sortOrder: 'desc' }));
    const { users } = store.getState().admin;
    expect(users.items.map((u) => u._id)).toEqual(['a']);
    expect([users.page, users.totalPages, users.total, users.status]).toEqual([2, 2, 11, 'succeeded']);
  });

  it("says 'Failed to fetch users' when the server gives no message, after the retry", async () => {
    vi.useFakeTimers();
    let calls = 0;
    mockApi.on('GET', '/admin/users', () => {
      calls += 1;
      return { status: 500, body: {} };
    });
    const store = adminStore();
    const done = store.dispatch(fetchUsers());
    await vi.advanceTimersByTimeAsync(1000);
    await done;
    vi.useRealTimers();
    expect(calls).toBe(2);
    expect(store.getState().admin.users.error).toBe(ADMIN_FALLBACK.fetchUsers);
    expect(store.getState().admin.users.status).toBe('failed');
  });

  it('block and role toggles derive the outcome from the message', async () => {
    const store = adminStore((s) => {
      s.users.items = [user('a')];
    });
    mockApi.on('PATCH', '/admin/users/block/a', { body: { message: 'User blocked' } }, { once: true });
    await store.dispatch(toggleBlockUser('a'));
    expect(store.getState().admin.users.items[0].blocked).toBe(true);
    mockApi.on('PATCH', '/admin/users/block/a', { body: { message: 'User is active again' } }, { once: true });
    await store.dispatch(toggleBlockUser('a'));
    expect(store.getState().admin.users.items[0].blocked).toBe(false);
    mockApi.on('PATCH', '/admin/users/role/a', { body: { message: 'User promoted to admin' } }, { once: true });
    await store.dispatch(toggleUserRole('a'));
    expect(store.getState().admin.users.items[0].role).toBe('admin');
    mockApi.on('PATCH', '/admin/users/role/a', { body: { message: 'User is now a regular user' } }, { once: true });
    await store.dispatch(toggleUserRole('a'));
    expect(store.getState().admin.users.items[0].role).toBe('user');
  });

  it('keeps the server message on a refused toggle, else the fallbacks', async () => {
    const store = adminStore((s) => {
      s.users.items = [user('a')];
    });
    mockApi.on('PATCH', '/admin/users/block/a', { status: 400, body: { message: 'You cannot block your own account' } });
    await store.dispatch(toggleBlockUser('a'));
    expect(store.getState().admin.error).toBe('You cannot block your own account');
    mockApi.on('PATCH', '/admin/users/role/a', { status: 500, body: {} });
    await store.dispatch(toggleUserRole('a'));
    expect(store.getState().admin.error).toBe('Failed to toggle user role');
    mockApi.on('PATCH', '/admin/users/block/a', { status: 500, body: {} });
    await store.dispatch(toggleBlockUser('a'));
    expect(store.getState().admin.error).toBe('Failed to toggle block user');
    mockApi.on('DELETE', '/admin/users/a', { status: 500, body: {} });
    await store.dispatch(deleteUser('a'));
    expect(store.getState().admin.error).toBe('Failed to delete user');
    expect(store.getState().admin.users.items).toHaveLength(1);
  });

  it('deleting a user removes them, lowers the total and recomputes the pages', async () => {
    const store = adminStore((s) => {
      s.users.items = [user('a'), user('b')];
      s.users.total = 11;
      s.users.totalPages = 2;
    });
    mockApi.on('DELETE', '/admin/users/a', { body: { message: 'User deleted successfully' } });
    await store.dispatch(deleteUser('a'));
    const { users, message } = store.getState().admin;
    expect(users.items.map((u) => u._id)).toEqual(['b']);
    expect(users.total).toBe(10);
    expect(users.totalPages).toBe(1);
    expect(message).toBe('User deleted successfully');
  });
});

describe('posts', () => {
  it('sorts by title ascending by default', async () => {
    mockApi.on('GET', '/admin/posts', (req) => {
      expect(req.url.searchParams.get('sortField')).toBe('title');
      expect(req.url.searchParams.get('sortOrder')).toBe('asc');
      expect(req.url.searchParams.get('page')).toBe('1');
      expect(req.url.searchParams.get('limit')).toBe('10');
      return { body: { posts: [post('p')], totalCount: 1, totalPages: 1, page: 1 } };
    });
    const store = adminStore();
    await store.dispatch(fetchPosts());
    expect(store.getState().admin.posts.items).toHaveLength(1);
    expect(store.getState().admin.posts.total).toBe(1);
  });

  it("a 502 gives an empty list and 'Server unavailable, please try again later'", async () => {
    vi.useFakeTimers();
    mockApi.on('GET', '/admin/posts', { status: 502, body: {} });
    const store = adminStore((s) => {
      s.posts.items = [post('old')];
    });
    const done = store.dispatch(fetchPosts());
    await vi.advanceTimersByTimeAsync(1000);
    await done;
    vi.useRealTimers();
    const { posts } = store.getState().admin;
    expect(mockApi.calls('GET', '/admin/posts')).toHaveLength(2);
    expect(posts.items).toEqual([]);
    expect(posts.status).toBe('succeeded');
    expect(posts.message).toBe(SERVER_UNAVAILABLE);
    expect(SERVER_UNAVAILABLE).toBe('Server unavailable, please try again later');
  });

  it("other failures say 'Failed to fetch posts'", async () => {
    mockApi.on('GET', '/admin/posts', { status: 400, body: {} });
    const store = adminStore();
    await store.dispatch(fetchPosts());
    expect(store.getState().admin.posts.error).toBe('Failed to fetch posts');
  });

  it('block toggles from the message; the live postBlockToggled updates the list; delete lowers the total', async () => {
    const store = adminStore((s) => {
      s.posts.items = [post('p'), post('q')];
      s.posts.total = 2;
      s.posts.totalPages = 1;
    });
    mockApi.on('PATCH', '/admin/posts/block/p', { body: { message: 'Post blocked', blocked: true } });
    await store.dispatch(toggleBlockPost('p'));
    expect(store.getState().admin.posts.items[0].blocked).toBe(true);
    store.dispatch(socketEvents.postBlockToggled({ postId: 'p', blocked: false }));
    expect(store.getState().admin.posts.items[0].blocked).toBe(false);
    mockApi.on('DELETE', '/admin/posts/q', { body: { message: 'Post deleted' } });
    await store.dispatch(deletePost('q'));
    expect(store.getState().admin.posts.items.map((p) => p._id)).toEqual(['p']);
    expect(store.getState().admin.posts.total).toBe(1);
    mockApi.on('PATCH', '/admin/posts/block/p', { status: 500, body: {} });
    await store.dispatch(toggleBlockPost('p'));
    expect(store.getState().admin.error).toBe('Failed to toggle block post');
    mockApi.on('DELETE', '/admin/posts/p', { status: 500, body: {} });
    await store.dispatch(deletePost('p'));
    expect(store.getState().admin.error).toBe('Failed to delete post');
  });
});

describe('contact messages', () => {
  it('a toggle sets handled from the answer; a reply marks it handled', async () => {
    const store = adminStore((s) => {
      s.contactMessages.items = [contact('c'), contact('d')];
      s.overview.data = { ...overview(), unreadContactMessages: 2 };
    });
    mockApi.on('PATCH', '/admin/contact-messages/c/handled', { body: { isHandled: true, message: 'Marked as handled' } });
    await store.dispatch(toggleMessageHandled('c'));
    expect(store.getState().admin.contactMessages.items[0].isHandled).toBe(true);
    expect(store.getState().admin.overview.data?.unreadContactMessages).toBe(1);
    mockApi.on('POST', '/admin/reply-contact/d', { body: { message: 'Reply sent', isHandled: true } });
    await store.dispatch(replyToContact({ id: 'd', subject: 'Re', message: 'Hi' }));
    expect(store.getState().admin.contactMessages.items[1].isHandled).toBe(true);
    expect(store.getState().admin.message).toBe('Reply sent');
  });

  it('says the fallbacks when the server gives no message', async () => {
    const store = adminStore((s) => {
      s.contactMessages.items = [contact('c')];
    });
    mockApi.on('GET', '/admin/contact-messages', { status: 500, body: {} });
    await store.dispatch(fetchContactMessages(1));
    expect(store.getState().admin.contactMessages.error).toBe('Failed to fetch contact messages');
    mockApi.on('PATCH', '/admin/contact-messages/c/handled', { status: 500, body: {} });
    await store.dispatch(toggleMessageHandled('c'));
    expect(store.getState().admin.error).toBe('Failed to toggle message status');
    mockApi.on('POST', '/admin/reply-contact/c', { status: 500, body: {} });
    await store.dispatch(replyToContact({ id: 'c', subject: 's', message: 'm' }));
    expect(store.getState().admin.error).toBe('Failed to reply to contact message');
  });

  it('a new message arrives live at the front, capped at 10; a reply is marked live', () => {
    let state = { ...initialAdminState(), contactMessages: { ...initialAdminState().contactMessages, items: Array.from({ length: 10 }, (_, i) => contact(`o${i}`)), total: 10 } };
    state.overview = { data: overview(), status: 'succeeded', error: null };
    state = adminReducer(state, socketEvents.contactMessageReceived({ _id: 'new', name: 'Guest', email: 'g@x.io', subject: 'Hi', message: 'Hello', isHandled: false, createdAt: '2026-02-01T00:00:00Z' }));
    expect(state.contactMessages.items).toHaveLength(LIVE_LIST_CAP);
    expect(state.contactMessages.items[0]._id).toBe('new');
    expect(state.contactMessages.total).toBe(11);
    expect(state.contactMessages.totalPages).toBe(2);
    expect(state.overview.data?.unreadContactMessages).toBe(1);
    // The same message twice is one.
    state = adminReducer(state, socketEvents.contactMessageReceived({ _id: 'new' }));
    expect(state.contactMessages.total).toBe(11);
    state = adminReducer(state, socketEvents.contactMessageReplied({ messageId: 'new', isHandled: true, repliedAt: '2026-02-02T00:00:00Z' }));
    expect(state.contactMessages.items[0].isHandled).toBe(true);
    expect(state.overview.data?.unreadContactMessages).toBe(0);
    // An event without an id is ignored.
    expect(adminReducer(state, socketEvents.contactMessageReceived({ subject: 'x' }))).toBe(state);
  });
});

describe('reports', () => {
  it('a review marks it reviewed with the forward choice; acknowledged comes separately, live', async () => {
    const store = adminStore((s) => {
      s.reports.items = [report('r')];
      s.overview.data = { ...overview(), openReports: 1 };
    });
    mockApi.on('PATCH', '/admin/reports/r', (req) => {
      expect(req.body).toEqual({ forwardToAuthor: true });
      return { body: { message: 'Report reviewed and forwarded to the author', report: { ...report('r'), isReviewed: true, forwardedToAuthor: true } } };
    });
    await store.dispatch(reviewReport({ id: 'r', forwardToAuthor: true }));
    let r = store.getState().admin.reports.items[0];
    expect([r.isReviewed, r.forwardedToAuthor, r.isAcknowledged]).toEqual([true, true, false]);
    expect(store.getState().admin.overview.data?.openReports).toBe(0);
    store.dispatch(socketEvents.reportAcknowledged({ reportId: 'r', isAcknowledged: true, acknowledgedAt: '2026-03-01T00:00:00Z' }));
    r = store.getState().admin.reports.items[0];
    expect(r.isAcknowledged).toBe(true);
    expect(r.acknowledgedAt).toBe('2026-03-01T00:00:00Z');
  });

  it('new reports arrive live at the front (capped at 10) and reviews of other administrators show', () => {
    let state = initialAdminState();
    for (let i = 0; i < 12; i += 1) state = adminReducer(state, socketEvents.reportReceived({ ...report(`r${i}`) }));
    expect(state.reports.items).toHaveLength(10);
    expect(state.reports.items[0]._id).toBe('r11');
    expect(state.reports.total).toBe(12);
    state = adminReducer(state, socketEvents.reportReviewed({ reportId: 'r11', isReviewed: true, forwardedToAuthor: true }));
    expect(state.reports.items[0].isReviewed).toBe(true);
    expect(state.reports.items[0].forwardedToAuthor).toBe(true);
  });

  it('says the fallbacks', async () => {
    const store = adminStore((s) => {
      s.reports.items = [report('r')];
    });
    mockApi.on('GET', '/admin/reports', { status: 500, body: {} });
    await store.dispatch(fetchReports(1));
    expect(store.getState().admin.reports.error).toBe('Failed to fetch reported posts');
    mockApi.on('PATCH', '/admin/reports/r', { status: 500, body: {} });
    await store.dispatch(reviewReport({ id: 'r', forwardToAuthor: false }));
    expect(store.getState().admin.error).toBe('Failed to review report');
  });
});

describe('appeals', () => {
  it('lists pending appeals by default, page 10 at a time, and drops the answer of a filter left since', async () => {
    const answers: Array<(reply: { body: unknown }) => void> = [];
    mockApi.on('GET', '/admin/appeals', () => new Promise((resolve) => answers.push(resolve)));
    const store = adminStore();
    const first = store.dispatch(fetchAppeals());
    const second = store.dispatch(fetchAppeals({ filter: 'decided', page: 1 }));
    expect(mockApi.calls('GET', '/admin/appeals').map((c) => Object.fromEntries(c.url.searchParams))).toEqual([
      { status: 'pending', page: '1', limit: '10' },
      { status: 'decided', page: '1', limit: '10' },
    ]);
    answers[1]({ body: { appeals: [appeal('d', { status: 'rejected' })], total: 1, totalPages: 1, page: 1, limit: 10 } });
    await second;
    answers[0]({ body: { appeals: [appeal('p')], total: 1, totalPages: 1, page: 1, limit: 10 } });
    await first;
    const { appeals } = store.getState().admin;
    expect(appeals.filter).toBe('decided');
    expect(appeals.items.map((a) => a._id)).toEqual(['d']);
    expect(appeals.status).toBe('succeeded');
  });

  it('a decision replaces the appeal, or takes it out of the pending list; the message is the server\'s', async () => {
    const store = adminStore((s) => {
      s.appeals.items = [appeal('x'), appeal('y')];
      s.appeals.total = 2;
      s.appeals.totalPages = 1;
    });
    mockApi.on('PATCH', '/admin/appeals/x', (req) => {
      expect(req.body).toEqual({ decision: 'accept', reply: 'Fine now.' });
      return { body: { message: 'Appeal accepted: the post is visible again', appeal: appeal('x', { status: 'accepted', postBlocked: false }) } };
    });
    await store.dispatch(decideAppeal({ id: 'x', decision: 'accept', reply: '  Fine now. ' }));
    expect(store.getState().admin.appeals.items.map((a) => a._id)).toEqual(['y']);
    expect(store.getState().admin.appeals.total).toBe(1);
    expect(store.getState().admin.message).toBe('Appeal accepted: the post is visible again');

    const all = adminStore((s) => {
      s.appeals.filter = 'all';
      s.appeals.items = [appeal('x')];
    });
    mockApi.on('PATCH', '/admin/appeals/x', { body: { message: 'Appeal rejected: the post stays blocked', appeal: appeal('x', { status: 'rejected' }) } });
    await all.dispatch(decideAppeal({ id: 'x', decision: 'reject', reply: '   ' }));
    expect(mockApi.calls('PATCH', '/admin/appeals/x').at(-1)?.body).toEqual({ decision: 'reject' });
    expect(all.getState().admin.appeals.items[0].status).toBe('rejected');
  });

  it('a refused decision changes nothing and is not the dashboard\'s status line (the section says it)', async () => {
    const store = adminStore((s) => {
      s.appeals.items = [appeal('x')];
    });
    mockApi.on('PATCH', '/admin/appeals/x', { status: 409, body: { message: 'This appeal was already decided' } });
    const result = await store.dispatch(decideAppeal({ id: 'x', decision: 'accept', reply: '' }));
    expect(result.payload).toBe('This appeal was already decided');
    expect(store.getState().admin.appeals.items[0].status).toBe('pending');
    expect(store.getState().admin.error).toBeNull();
  });

  it('new appeals and decisions mark the list out of date and move the overview\'s figure', () => {
    let state = initialAdminState();
    state.overview.data = { ...overview(), pendingAppeals: 1 };
    state = adminReducer(state, socketEvents.appealReceived({ postId: 'p', postTitle: 'T' }));
    expect(state.overview.data?.pendingAppeals).toBe(2);
    state = adminReducer(state, socketEvents.appealDecided({ appealId: 'x', status: 'accepted' }));
    state = adminReducer(state, socketEvents.appealDecided({ appealId: 'y', status: 'rejected' }));
    state = adminReducer(state, socketEvents.appealDecided({ appealId: 'z', status: 'accepted' }));
    expect(state.overview.data?.pendingAppeals).toBe(0);
    expect(state.appeals.changes).toBe(4);
  });
});

describe('banners', () => {
  const banner = (id: string) => ({ _id: id, title: id, message: 'm', region: 'global', isActive: true, sticky: false, urgent: false, dismissedBy: [], timestamp: '2026-01-01T00:00:00Z', createdAt: '2026-01-01T00:00:00Z' });

  it('created ones go to the front; dismissed or deactivated ones leave; all can be deleted', async () => {
    const store = adminStore((s) => {
      s.bannerNotifications.items = [banner('a'), banner('b'), banner('c')];
    });
    mockApi.on('POST', '/bannerNotification/create', { status: 201, body: { message: 'Banner notification created', notification: banner('n') } });
    await store.dispatch(createBannerNotification({ title: 'n', message: 'm', region: 'global' }));
    expect(store.getState().admin.bannerNotifications.items.map((b) => b._id)).toEqual(['n', 'a', 'b', 'c']);
    mockApi.on('PATCH', '/bannerNotification/deactivate/a', { body: { message: 'ok' } });
    await store.dispatch(deactivateBannerNotification('a'));
    mockApi.on('PATCH', '/bannerNotification/dismiss/b', { body: { message: 'ok' } });
    await store.dispatch(dismissBannerNotification('b'));
    expect(store.getState().admin.bannerNotifications.items.map((b) => b._id)).toEqual(['n', 'c']);
    mockApi.on('DELETE', '/bannerNotification/delete-all', { body: { message: 'All banner notifications deleted' } });
    await store.dispatch(deleteAllBannerNotifications());
    expect(store.getState().admin.bannerNotifications.items).toEqual([]);
  });

  it('lists every banner of every region and says the fallbacks', async () => {
    mockApi.on('GET', '/bannerNotification/get-Notification', (req) => {
      expect(req.url.searchParams.get('all')).toBe('true');
      return { status: 500, body: {} };
    });
    const store = adminStore((s) => {
      s.bannerNotifications.items = [banner('a')];
    });
    await store.dispatch(fetchBannerNotifications());
    expect(store.getState().admin.bannerNotifications.error).toBe('Failed to fetch banner notifications');
    mockApi.on('POST', '/bannerNotification/create', { status: 500, body: {} });
    await store.dispatch(createBannerNotification({ title: 't', message: 'm', region: 'global' }));
    expect(store.getState().admin.error).toBe('Failed to create banner notification');
    mockApi.on('PATCH', '/bannerNotification/deactivate/a', { status: 500, body: {} });
    await store.dispatch(deactivateBannerNotification('a'));
    expect(store.getState().admin.error).toBe('Failed to deactivate notification');
    mockApi.on('PATCH', '/bannerNotification/dismiss/a', { status: 500, body: {} });
    await store.dispatch(dismissBannerNotification('a'));
    expect(store.getState().admin.error).toBe('Failed to dismiss notification');
    mockApi.on('DELETE', '/bannerNotification/delete-all', { status: 500, body: {} });
    await store.dispatch(deleteAllBannerNotifications());
    expect(store.getState().admin.error).toBe('Failed to delete all notifications');
    expect(store.getState().admin.bannerNotifications.items).toHaveLength(1);
  });
});

describe('subscription management', () => {
  const plan = (id: string, status: 'active' | 'inactive' = 'active'): Plan => ({
    _id: id,
    authorId: 'u',
    name: id,
    description: '',
    price: 500,
    currency: 'usd',
    interval: 'month',
    benefits: [],
    status,
    isDeleted: false,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    mode: 'test',
  });

  it('plan status toggles', async () => {
    const store = adminStore((s) => {
      s.plans.items = [plan('p')];
    });
    mockApi.on('PATCH', '/admin/subscriptions/plan/status', (req) => {
      expect(req.body).toEqual({ planId: 'p', status: 'inactive' });
      return { body: { message: 'Plan status updated', plan: plan('p', 'inactive') } };
    });
    await store.dispatch(togglePlanStatus({ planId: 'p', status: 'active' }));
    expect(store.getState().admin.plans.items[0].status).toBe('inactive');
    mockApi.on('PATCH', '/admin/subscriptions/plan/status', { status: 500, body: {} });
    await store.dispatch(togglePlanStatus({ planId: 'p', status: 'inactive' }));
    expect(store.getState().admin.error).toBe('Failed to toggle subscription plan status');
    mockApi.on('GET', '/admin/subscriptions/plans', { status: 500, body: {} });
    await store.dispatch(fetchPlans(1));
    expect(store.getState().admin.plans.error).toBe('Failed to fetch subscription plans');
  });

  it('reads the criteria, falls back to the administrators defaults when there is no configuration, and updates them', async () => {
    mockApi.on('GET', '/subscription/check-eligibility', { status: 404, body: { message: 'Subscription configuration not found' } }, { once: true });
    const store = adminStore();
    await store.dispatch(fetchCriteria());
    let c = store.getState().admin.subscriptionCriteria;
    expect(c.value).toEqual({ minFollowers: 10000, minPosts: 30, minEngagementRate: 0.05, minAccountAgeDays: 30 });
    expect(c.message).toBe('Subscription configuration not found, using default criteria');
    const lower = { minFollowers: 0, minPosts: 1, minEngagementRate: 0, minAccountAgeDays: 0 };
    mockApi.on('PATCH', '/admin/subscriptions/criteria', { body: { message: 'Subscription criteria updated', criteria: lower } }, { once: true });
    await store.dispatch(updateCriteria(lower));
    c = store.getState().admin.subscriptionCriteria;
    expect(c.value).toEqual(lower);
    expect(c.message).toBe('Subscription criteria updated');
    mockApi.on('PATCH', '/admin/subscriptions/criteria', { status: 500, body: {} });
    await store.dispatch(updateCriteria(lower));
    expect(store.getState().admin.subscriptionCriteria.error).toBe('Failed to update eligibility criteria');
  });

  const milestones = { followerCount: 5, postCount: null, engagementRate: null, accountAgeDays: null };
  const eligibility = (over = {}) => ({
    isEligible: true,
    followerCount: 5,
    postCount: 1,
    engagementRate: 0,
    accountAgeDays: 0,
    overrideInfo: { isEligibleForSubscription: true, bypassSubscriptionCriteria: true, milestoneOverride: milestones },
    ...over,
  });

  it('checks a user, toggles, overrides milestones and reset clears all four to null', async () => {
    const store = adminStore((s) => {
      s.users.items = [user('u')];
    });
    mockApi.on('GET', '/admin/subscriptions/eligibility/u', { body: eligibility() });
    await store.dispatch(checkUserEligibility('u'));
    expect(store.getState().admin.userEligibility.value?.followerCount).toBe(5);
    expect(store.getState().admin.overrideInfo?.milestoneOverride).toEqual(milestones);
    expect(store.getState().admin.users.items[0].isEligibleForSubscription).toBe(true);

    mockApi.on('POST', '/admin/subscriptions/eligibility/toggle', (req) => {
      expect(req.body).toEqual({ userId: 'u', enable: false });
      return {
        body: {
          message: 'User eligibility updated',
          user: { _id: 'u', isEligibleForSubscription: false, bypassSubscriptionCriteria: true, milestoneOverride: milestones },
          overrideInfo: { isEligibleForSubscription: false, bypassSubscriptionCriteria: true, milestoneOverride: milestones },
          eligibility: eligibility({ isEligible: false }),
        },
      };
    });
    await store.dispatch(toggleUserEligibility({ userId: 'u', enable: false }));
    expect(store.getState().admin.users.items[0].isEligibleForSubscription).toBe(false);
    expect(store.getState().admin.userEligibility.value?.isEligible).toBe(false);
    expect(store.getState().admin.userEligibility.message).toBe('User eligibility updated');

    mockApi.on('PATCH', '/admin/subscriptions/user-milestone/u', { body: { message: 'ok', overrideInfo: { isEligibleForSubscription: false, bypassSubscriptionCriteria: true, milestoneOverride: { ...milestones, postCount: 40 } } } });
    await store.dispatch(overrideMilestones({ userId: 'u', values: { postCount: 40 } }));
    expect(store.getState().admin.overrideInfo?.milestoneOverride.postCount).toBe(40);

    // Reset: all four are null at once, then as the server says.
    let resolve: (v: unknown) => void = () => {};
    mockApi.on('PATCH', '/admin/subscriptions/user-milestone-reset/u', () => new Promise((r) => (resolve = r)) as never);
    const pending = store.dispatch(resetMilestones('u'));
    await Promise.resolve();
    expect(store.getState().admin.overrideInfo?.milestoneOverride).toEqual({ followerCount: null, postCount: null, engagementRate: null, accountAgeDays: null });
    resolve({ body: { message: 'Milestones reset' } });
    await pending;
    expect(store.getState().admin.userEligibility.message).toBe('Milestones reset');
  });

  it('clearing the milestone override locally sets all four to null', () => {
    const state = { ...initialAdminState(), overrideInfo: { isEligibleForSubscription: true, bypassSubscriptionCriteria: false, milestoneOverride: milestones } };
    expect(adminReducer(state, milestonesCleared()).overrideInfo?.milestoneOverride).toEqual({ followerCount: null, postCount: null, engagementRate: null, accountAgeDays: null });
  });

  it.each([
    ['POST', '/admin/subscriptions/eligibility/toggle', (s: AdminStore) => s.dispatch(toggleUserEligibility({ userId: 'u', enable: true })), 'Failed to toggle user eligibility'],
    ['PATCH', '/admin/subscriptions/user-milestone/u', (s: AdminStore) => s.dispatch(overrideMilestones({ userId: 'u', values: {} })), 'Failed to override user milestones'],
    ['PATCH', '/admin/subscriptions/user-milestone-reset/u', (s: AdminStore) => s.dispatch(resetMilestones('u')), 'Failed to reset user milestones'],
    ['GET', '/admin/subscriptions/eligibility/u', (s: AdminStore) => s.dispatch(checkUserEligibility('u')), 'Failed to check user eligibility'],
  ] as const)('%s %s falls back to %s', async (method, path, run, text) => {
    mockApi.on(method, path, { status: 500, body: {} });
    const store = adminStore();
    await run(store);
    expect(store.getState().admin.userEligibility.error).toBe(text);
  });
});

describe('earnings, analytics and email', () => {
  it('lists earnings and runs payouts with per-author results', async () => {
    mockApi.on('GET', '/earning/admin/earnings', {
      body: { userEarnings: [{ userId: 'a', name: 'A', currency: 'usd', gross: 2000, fees: 200, refunds: 0, paidOut: 0, availableBalance: 1800, hasBankDetails: true }], total: 1, totalPages: 1, page: 1, minPayout: 1000 },
    });
    const store = adminStore();
    await store.dispatch(fetchUserEarnings(1));
    expect(store.getState().admin.userEarnings.items[0].availableBalance).toBe(1800);
    expect(store.getState().admin.userEarnings.minPayout).toBe(1000);
    mockApi.on('POST', '/earning/admin/payouts', (req) => {
      expect(req.body).toEqual({ users: ['a'] });
      return { body: { message: 'Payouts processed', results: [{ userId: 'a', status: 'paid', currency: 'usd', amount: 1800 }] } };
    });
    // A double click: the second request is never sent while the first is in flight.
    await Promise.all([store.dispatch(processPayouts(['a'])), store.dispatch(processPayouts(['a']))]);
    expect(mockApi.calls('POST', '/earning/admin/payouts')).toHaveLength(1);
    expect(store.getState().admin.userEarnings.payout.results[0].status).toBe('paid');
    mockApi.on('POST', '/earning/admin/payouts', { status: 500, body: {} });
    await store.dispatch(processPayouts(['a']));
    expect(store.getState().admin.userEarnings.payout.error).toBe('Failed to process bulk payouts');
    mockApi.on('GET', '/earning/admin/earnings', { status: 500, body: {} });
    await store.dispatch(fetchUserEarnings(1));
    expect(store.getState().admin.userEarnings.error).toBe("Failed to fetch users' earnings");
  });

  it('fetches analytics for a date range: idle, loading, succeeded or failed', async () => {
    const store = adminStore();
    expect(store.getState().admin.analytics.status).toBe('idle');
    mockApi.on('GET', '/admin/analytics', (req) => {
      expect(req.url.searchParams.get('startDate')).toBe('2026-01-01');
      return { body: { data: { traffic: { totalVisits: 3, totalTimeSpent: 10, uniqueUsersCount: 1, uniquePostsCount: 1 }, topPosts: [], topUsers: [], series: [] } } };
    });
    const done = store.dispatch(fetchSiteAnalytics({ startDate: '2026-01-01', endDate: '2026-01-31' }));
    expect(store.getState().admin.analytics.status).toBe('loading');
    await done;
    expect(store.getState().admin.analytics.status).toBe('succeeded');
    expect(store.getState().admin.analytics.data?.traffic.totalVisits).toBe(3);
    mockApi.on('GET', '/admin/analytics', { status: 500, body: {} });
    await store.dispatch(fetchSiteAnalytics({ startDate: '', endDate: '' }));
    expect(store.getState().admin.analytics.status).toBe('failed');
    expect(store.getState().admin.analytics.error).toBe('Failed to fetch site analytics');
  });

  it('lists email statuses by type or address, retries a type with per-message results, and reads the daily report', async () => {
    mockApi.on('GET', '/admin/all-email-statuses', (req) => {
      expect(req.url.searchParams.get('type')).toBe('contact_reply');
      return { body: { logs: [{ _id: 'e', email: 'x@y.io', type: 'contact_reply', success: false, stopEmailAttempts: false }], total: 1, totalPages: 1, page: 1 } };
    });
    const store = adminStore();
    await store.dispatch(fetchEmailStatuses({ type: 'contact_reply', page: 1 }));
    expect(store.getState().admin.emailStatuses.items).toHaveLength(1);
    mockApi.on('POST', '/admin/retry-failed-emails', { body: { message: 'Retried 1', results: [{ _id: 'e', email: 'x@y.io', type: 'contact_reply', success: true, stopEmailAttempts: false }] } });
    await store.dispatch(retryFailedEmails('contact_reply'));
    expect(store.getState().admin.emailStatuses.retry.results[0].success).toBe(true);
    expect(store.getState().admin.emailStatuses.items[0].success).toBe(true);
    mockApi.on('GET', '/admin/email-status', { status: 500, body: {} });
    await store.dispatch(fetchEmailStatuses({ email: 'x@y.io' }));
    expect(store.getState().admin.emailStatuses.error).toBe('Failed to fetch email status');
    mockApi.on('GET', '/admin/all-email-statuses', { status: 500, body: {} });
    await store.dispatch(fetchEmailStatuses({ email: '' }));
    expect(store.getState().admin.emailStatuses.error).toBe('Failed to fetch email statuses');
    mockApi.on('POST', '/admin/retry-failed-emails', { status: 500, body: {} });
    await store.dispatch(retryFailedEmails('welcome'));
    expect(store.getState().admin.emailStatuses.retry.error).toBe('Failed to retry failed emails');
    mockApi.on('GET', '/dailyMail/daily-post-report', (req) => {
      expect(req.url.searchParams.get('date')).toBe('2026-05-31');
      return { status: 500, body: {} };
    });
    await store.dispatch(fetchEmailReports({ date: '2026-05-31', page: 1 }));
    expect(store.getState().admin.emailReports.error).toBe('Failed to fetch daily post email report');
  });
});

describe('session', () => {
  it('loads the overview, contact messages and reports when an administrator joins adminRoom', async () => {
    mockApi.on('GET', '/admin/overview', { body: overview() });
    mockApi.on('GET', '/admin/contact-messages', { body: { messages: [contact('c')], totalMessages: 1, totalPages: 1, page: 1 } });
    mockApi.on('GET', '/admin/reports', { body: { reports: [report('r')], total: 1, totalPages: 1, page: 1 } });
    const store = adminStore();
    await store.dispatch(initUserSocket({ userId: testAdmin._id, role: 'admin' }));
    await vi.waitFor(() => expect(store.getState().admin.reports.items).toHaveLength(1));
    expect(store.getState().admin.contactMessages.items).toHaveLength(1);
    expect(store.getState().admin.overview.data?.online.count).toBe(1);
    store.dispatch(socketEvents.onlineUsersCountReceived(7));
    expect(store.getState().admin.overview.data?.online.count).toBe(7);
  });

  it('an ordinary user loads nothing of it', async () => {
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(initUserSocket({ userId: 'u1', role: 'user' }));
    expect(mockApi.calls('GET', '/admin/overview')).toHaveLength(0);
  });

  it('follows a background retry: 202 with its job id, live progress, then the finished job\'s results', async () => {
    const store = adminStore();
    mockApi.on('POST', '/admin/retry-failed-emails', { status: 202, body: { message: 'Retrying the failed emails in the background', jobId: 'j1', results: [] } });
    await store.dispatch(retryFailedEmails('contact_reply'));
    expect(store.getState().admin.emailStatuses.retry.jobId).toBe('j1');
    expect(store.getState().admin.emailStatuses.retry.results).toEqual([]);
    store.dispatch(socketEvents.adminJobProgressReceived({ jobId: 'j1', kind: 'retry_emails', status: 'running', done: 1, total: 3, message: null }));
    expect(store.getState().admin.jobs.j1).toEqual({ jobId: 'j1', kind: 'retry_emails', status: 'running', done: 1, total: 3, message: null });
    store.dispatch(socketEvents.adminJobProgressReceived({ kind: 'broadcast' }));
    expect(Object.keys(store.getState().admin.jobs)).toEqual(['j1']);
    mockApi.on('GET', '/admin/jobs/j1', {
      body: { job: { _id: 'j1', kind: 'retry_emails', status: 'done', done: 3, total: 3, message: '1 sent, 2 still failing', results: [{ _id: 'e', email: 'x@y.io', type: 'contact_reply', success: true, stopEmailAttempts: false }] } },
    });
    await store.dispatch(fetchRetryJob('j1'));
    const retry = store.getState().admin.emailStatuses.retry;
    expect(retry.message).toBe('1 sent, 2 still failing');
    expect(retry.results.map((r) => r._id)).toEqual(['e']);
    expect(store.getState().admin.jobs.j1.status).toBe('done');
  });
});
