/**
 * The administrator state (seed 001 §3 "Admin state lists", §4 "Administration"): every list
 * with its page, total pages and total, and every transition of the spec.
 *
 * - Block or unblock of a user or post toggles its blocked flag; the outcome is read from the
 *   server message (does it contain the word "blocked"). A role toggle reads "admin" likewise.
 * - Deleting a user or post removes it and lowers the total; total pages = ceil(total / 10).
 * - A contact message becomes handled on a toggle or a reply; a report becomes reviewed (with the
 *   forward choice) and, separately, acknowledged.
 * - Banners: created (front), dismissed or deactivated (removed), all deleted.
 * - Plan status toggles. Clearing a milestone override sets all four thresholds to null.
 * - Live: new contact messages and reports go to the front (capped at 10), reports are marked
 *   reviewed or acknowledged, contact messages replied, posts blocked or restored.
 */
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { injectReducers } from '@/app/store';
import { ApiError, errorMessage, http } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
import { initUserSocket, socketEvents } from '@/features/socket';
import { ADMIN_FALLBACK, ADMIN_PAGE_SIZE, adminApi, SERVER_UNAVAILABLE, type AdminJob, type EligibilityChange, type PostQuery, type UserQuery } from './admin-api';
import type {
  AdminPost,
  AdminUser,
  AuditEntry,
  BannerNotice,
  ContactMessage,
  EmailReport,
  EmailStatus,
  Feedback,
  MilestoneOverride,
  OverrideInfo,
  Overview,
  PayoutResult,
  Plan,
  Report,
  SiteAnalytics,
  Status,
  SubscriptionCriteria,
  UserEarning,
  UserEligibility,
} from './admin-types';
import { withRetry } from './retry';

/** Realtime lists of new contact messages and reports are capped at 10 (seed 001 §9). */
export const LIVE_LIST_CAP = 10;
/** Default eligibility criteria of the administrators' area (seed 001 §9). */
export const ADMIN_DEFAULT_CRITERIA: SubscriptionCriteria = { minFollowers: 10000, minPosts: 30, minEngagementRate: 0.05, minAccountAgeDays: 30 };
export const EMPTY_MILESTONES: MilestoneOverride = { followerCount: null, postCount: null, engagementRate: null, accountAgeDays: null };

export interface PagedList<T> {
  items: T[];
  page: number;
  totalPages: number;
  total: number;
  status: Status;
  error: string | null;
}

function emptyList<T>(): PagedList<T> {
  return { items: [], page: 1, totalPages: 0, total: 0, status: 'idle', error: null };
}

export interface ActionResult<T> {
  status: Status;
  message: string | null;
  error: string | null;
  results: T[];
}

function idleAction<T>(): ActionResult<T> {
  return { status: 'idle', message: null, error: null, results: [] };
}

export interface AdminState {
  overview: { data: Overview | null; status: Status; error: string | null };
  users: PagedList<AdminUser> & { query: Required<Pick<UserQuery, 'sortField' | 'sortOrder'>> & { search: string } };
  /** Users found by the pickers (payouts, notices, feedback prompts). */
  allUsers: AdminUser[];
  posts: PagedList<AdminPost> & { query: Required<Pick<PostQuery, 'sortField' | 'sortOrder'>> & { search: string }; message: string | null };
  contactMessages: PagedList<ContactMessage>;
  reports: PagedList<Report>;
  userEarnings: PagedList<UserEarning> & { minPayout: number | null; payout: ActionResult<PayoutResult> };
  emailStatuses: PagedList<EmailStatus> & { type: string; email: string; retry: ActionResult<EmailStatus> & { jobId?: string | null } };
  /** Background jobs (email retries, notice broadcasts) by id, as `adminJobProgress` reports them. */
  jobs: Record<string, AdminJob>;
  emailReports: PagedList<EmailReport> & { date: string };
  bannerNotifications: { items: BannerNotice[]; status: Status; error: string | null };
  plans: PagedList<Plan>;
  subscriptionCriteria: { value: SubscriptionCriteria | null; status: Status; error: string | null; message: string | null };
  userEligibility: { userId: string | null; value: UserEligibility | null; status: Status; error: string | null; message: string | null };
  overrideInfo: OverrideInfo | null;
  analytics: { data: SiteAnalytics | null; status: Status; error: string | null; range: { startDate: string; endDate: string } };
  auditLog: PagedList<AuditEntry> & { filter: { action: string; actorId: string } };
  feedbacks: PagedList<Feedback>;
  /** The last action's outcome (shown as a status line). */
  message: string | null;
  error: string | null;
}

export const initialAdminState = (): AdminState => ({
  overview: { data: null, status: 'idle', error: null },
  users: { ...emptyList<AdminUser>(), query: { search: '', sortField: 'name', sortOrder: 'asc' } },
  allUsers: [],
  posts: { ...emptyList<AdminPost>(), query: { search: '', sortField: 'title', sortOrder: 'asc' }, message: null },
  contactMessages: emptyList(),
  reports: emptyList(),
  userEarnings: { ...emptyList<UserEarning>(), minPayout: null, payout: idleAction() },
  emailStatuses: { ...emptyList<EmailStatus>(), type: '', email: '', retry: idleAction() },
  jobs: {},
  emailReports: { ...emptyList<EmailReport>(), date: '' },
  bannerNotifications: { items: [], status: 'idle', error: null },
  plans: emptyList(),
  subscriptionCriteria: { value: null, status: 'idle', error: null, message: null },
  userEligibility: { userId: null, value: null, status: 'idle', error: null, message: null },
  overrideInfo: null,
  analytics: { data: null, status: 'idle', error: null, range: { startDate: '', endDate: '' } },
  auditLog: { ...emptyList<AuditEntry>(), filter: { action: '', actorId: '' } },
  feedbacks: emptyList(),
  message: null,
  error: null,
});

// ── Rules the spec states ──────────────────────────────────────────────────────────────────

/** Total pages from a total (seed 001 §4: the ceiling of total divided by 10). */
export const totalPagesOf = (total: number, pageSize = ADMIN_PAGE_SIZE) => Math.ceil(Math.max(0, total) / pageSize);
/** Whether a block answer says the user or post is now blocked ("unblocked" is another word). */
export const messageSaysBlocked = (message: string | null | undefined) => /\bblocked\b/i.test(message ?? '');
/** Whether a role answer says the user is now an administrator. */
export const messageSaysAdmin = (message: string | null | undefined) => /\badmin\b/i.test(message ?? '');

function removeFrom<T extends { _id: string }>(list: PagedList<T>, id: string) {
  list.items = list.items.filter((item) => item._id !== id);
  list.total = Math.max(0, list.total - 1);
  list.totalPages = totalPagesOf(list.total);
}

function prependLive<T extends { _id: string }>(list: PagedList<T>, item: T) {
  if (list.items.some((i) => i._id === item._id)) return false;
  list.items = [item, ...list.items].slice(0, LIVE_LIST_CAP);
  list.total += 1;
  list.totalPages = totalPagesOf(list.total);
  return true;
}

const str = (value: unknown) => (typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value));
const idOf = (payload: Record<string, unknown>, ...keys: string[]) => {
  for (const key of keys) if (typeof payload[key] === 'string' && payload[key]) return payload[key] as string;
  return '';
};

/** A `newContactMessage` payload as a list item (null when it has no id). */
export function contactFromEvent(payload: Record<string, unknown>): ContactMessage | null {
  const id = idOf(payload, '_id', 'id');
  if (!id) return null;
  return {
    _id: id,
    name: str(payload.name),
    email: str(payload.email),
    subject: str(payload.subject),
    message: str(payload.message),
    isHandled: Boolean(payload.isHandled),
    userId: (payload.userId as string | null | undefined) ?? null,
    reply: (payload.reply as ContactMessage['reply']) ?? null,
    createdAt: str(payload.createdAt) || new Date().toISOString(),
  };
}

/** A `newReport` payload as a list item (null when it has no id). */
export function reportFromEvent(payload: Record<string, unknown>): Report | null {
  const id = idOf(payload, '_id', 'id', 'reportId');
  if (!id) return null;
  const post = payload.post as Report['post'];
  return {
    ...(payload as unknown as Report),
    _id: id,
    postId: idOf(payload, 'postId') || post?._id || '',
    postTitle: str(payload.postTitle) || post?.title || '',
    reason: str(payload.reason),
    isReviewed: Boolean(payload.isReviewed),
    forwardedToAuthor: Boolean(payload.forwardedToAuthor),
    isAcknowledged: Boolean(payload.isAcknowledged),
    createdAt: str(payload.createdAt) || new Date().toISOString(),
  };
}

// ── Thunks ─────────────────────────────────────────────────────────────────────────────────

type Config = { rejectValue: string; state: { admin: AdminState } };

function thunk<R, A>(type: string, fallback: string, run: (arg: A, api: { getState: () => { admin: AdminState } }) => Promise<R>) {
  return createAsyncThunk<R, A, Config>(`admin/${type}`, async (arg, { rejectWithValue, getState }) => {
    try {
      return await run(arg, { getState });
    } catch (e) {
      return rejectWithValue(errorMessage(e, fallback));
    }
  });
}

export const fetchOverview = thunk<Overview, void>('fetchOverview', ADMIN_FALLBACK.overview, () => adminApi.overview());

/** The user list (with the retry helper); the query is remembered for the next page. */
export const fetchUsers = thunk<{ users: AdminUser[]; total: number; totalPages: number; page: number }, UserQuery | void>(
  'fetchUsers',
  ADMIN_FALLBACK.fetchUsers,
  async (arg, { getState }) => {
    const { query, page } = getState().admin.users;
    const q = { ...query, page, ...(arg ?? {}) };
    const r = await withRetry(() => adminApi.users(q));
    const total = Number(r?.totalUsers ?? r?.total ?? 0);
    return { users: r?.users ?? [], total, totalPages: Number(r?.totalPages ?? totalPagesOf(total)), page: Number(r?.page ?? q.page ?? 1) };
  },
);

/** Users for the pickers (search by name or email). */
export const searchAllUsers = thunk<AdminUser[], string>('searchAllUsers', ADMIN_FALLBACK.fetchUsers, async (search) => {
  const r = await adminApi.users({ search, page: 1, limit: 20, sortField: 'name', sortOrder: 'asc' });
  return r?.users ?? [];
});

export const toggleBlockUser = thunk<{ userId: string; message: string; data: AdminUser | null }, string>(
  'toggleBlockUser',
  ADMIN_FALLBACK.toggleBlockUser,
  async (userId) => {
    const r = await adminApi.toggleBlockUser(userId);
    return { userId, message: r?.message ?? '', data: r?.data ?? null };
  },
);

export const toggleUserRole = thunk<{ userId: string; message: string; data: AdminUser | null }, string>(
  'toggleUserRole',
  ADMIN_FALLBACK.toggleUserRole,
  async (userId) => {
    const r = await adminApi.toggleUserRole(userId);
    return { userId, message: r?.message ?? '', data: r?.data ?? null };
  },
);

export const deleteUser = thunk<{ userId: string; message: string }, string>('deleteUser', ADMIN_FALLBACK.deleteUser, async (userId) => {
  const r = await adminApi.deleteUser(userId);
  return { userId, message: r?.message ?? 'User deleted' };
});

/**
 * The post list (with the retry helper). A 502 answers an empty list with 'Server unavailable,
 * please try again later' (seed 001 §8) instead of failing.
 */
export const fetchPosts = thunk<
  { posts: AdminPost[]; total: number; totalPages: number; page: number; message: string | null },
  PostQuery | void
>('fetchPosts', ADMIN_FALLBACK.fetchPosts, async (arg, { getState }) => {
  const { query, page } = getState().admin.posts;
  const q = { ...query, page, ...(arg ?? {}) };
  try {
    const r = await withRetry(() => adminApi.posts(q));
    const total = Number(r?.totalCount ?? 0);
    return { posts: r?.posts ?? [], total, totalPages: Number(r?.totalPages ?? totalPagesOf(total)), page: Number(r?.page ?? q.page ?? 1), message: null };
  } catch (e) {
    if (e instanceof ApiError && e.status === 502) return { posts: [], total: 0, totalPages: 0, page: q.page ?? 1, message: SERVER_UNAVAILABLE };
    throw e;
  }
});

export const toggleBlockPost = thunk<{ postId: string; message: string; blocked: boolean }, string>(
  'toggleBlockPost',
  ADMIN_FALLBACK.toggleBlockPost,
  async (postId) => {
    const r = await adminApi.toggleBlockPost(postId);
    const message = r?.message ?? '';
    return { postId, message, blocked: messageSaysBlocked(message) };
  },
);

export const deletePost = thunk<{ postId: string; message: string }, string>('deletePost', ADMIN_FALLBACK.deletePost, async (postId) => {
  const r = await adminApi.deletePost(postId);
  return { postId, message: r?.message ?? 'Post deleted' };
});

export const fetchContactMessages = thunk<{ items: ContactMessage[]; total: number; totalPages: number; page: number }, number | void>(
  'fetchContactMessages',
  ADMIN_FALLBACK.fetchContactMessages,
  async (page, { getState }) => {
    const p = page ?? getState().admin.contactMessages.page;
    const r = await adminApi.contactMessages({ page: p });
    const total = Number(r?.totalMessages ?? 0);
    return { items: r?.messages ?? [], total, totalPages: Number(r?.totalPages ?? totalPagesOf(total)), page: Number(r?.page ?? p) };
  },
);

export const toggleMessageHandled = thunk<{ id: string; isHandled: boolean; message: string }, string>(
  'toggleMessageHandled',
  ADMIN_FALLBACK.toggleMessage,
  async (id, { getState }) => {
    const r = await adminApi.toggleHandled(id);
    const before = getState().admin.contactMessages.items.find((m) => m._id === id)?.isHandled ?? false;
    return { id, isHandled: typeof r?.isHandled === 'boolean' ? r.isHandled : !before, message: r?.message ?? '' };
  },
);

export const replyToContact = thunk<{ id: string; message: string; data: ContactMessage | null }, { id: string; subject: string; message: string }>(
  'replyToContact',
  ADMIN_FALLBACK.replyContact,
  async ({ id, subject, message }) => {
    const r = await adminApi.replyContact(id, { subject, message });
    return { id, message: r?.message ?? 'Reply sent', data: r?.data ?? null };
  },
);

export const fetchReports = thunk<{ items: Report[]; total: number; totalPages: number; page: number }, number | void>(
  'fetchReports',
  ADMIN_FALLBACK.fetchReports,
  async (page, { getState }) => {
    const p = page ?? getState().admin.reports.page;
    const r = await adminApi.reports({ page: p });
    const total = Number(r?.total ?? 0);
    return { items: r?.reports ?? [], total, totalPages: Number(r?.totalPages ?? totalPagesOf(total)), page: Number(r?.page ?? p) };
  },
);

export const reviewReport = thunk<{ id: string; forwardToAuthor: boolean; message: string; report: Report | null }, { id: string; forwardToAuthor: boolean }>(
  'reviewReport',
  ADMIN_FALLBACK.reviewReport,
  async ({ id, forwardToAuthor }) => {
    const r = await adminApi.reviewReport(id, forwardToAuthor);
    return { id, forwardToAuthor, message: r?.message ?? 'Report reviewed', report: r?.report ?? null };
  },
);

export const sendReportNotification = thunk<{ reportId: string; message: string; emailSent: boolean }, { reportId: string; subject: string; message: string }>(
  'sendReportNotification',
  ADMIN_FALLBACK.sendNotification,
  async (body) => {
    const r = await adminApi.sendReportNotice(body);
    return { reportId: body.reportId, message: r?.message ?? 'Notification sent', emailSent: r?.emailSent !== false };
  },
);

/** The reported post's author acknowledges a report (`/acknowledge/{reportId}`). */
export const acknowledgeReport = thunk<{ id: string; message: string; report: Report | null }, string>(
  'acknowledgeReport',
  ADMIN_FALLBACK.acknowledgeReport,
  async (id) => {
    const r = await adminApi.acknowledgeReport(id);
    return { id, message: r?.message ?? 'Report acknowledged', report: r?.report ?? null };
  },
);

export const fetchUserEarnings = thunk<{ items: UserEarning[]; total: number; totalPages: number; page: number; minPayout: number | null }, number | void>(
  'fetchUserEarnings',
  ADMIN_FALLBACK.fetchEarnings,
  async (page, { getState }) => {
    const p = page ?? getState().admin.userEarnings.page;
    const r = await adminApi.earnings({ page: p });
    const total = Number(r?.total ?? 0);
    return {
      items: r?.userEarnings ?? [],
      total,
      totalPages: Number(r?.totalPages ?? totalPagesOf(total)),
      page: Number(r?.page ?? p),
      minPayout: typeof r?.minPayout === 'number' ? r.minPayout : null,
    };
  },
);

/** Bulk payouts; a second request while one is in flight is dropped (a double click pays once). */
export const processPayouts = createAsyncThunk<{ message: string; results: PayoutResult[] }, string[], Config>(
  'admin/processPayouts',
  async (users, { rejectWithValue }) => {
    try {
      const r = await adminApi.payouts(users);
      return { message: r?.message ?? 'Payouts processed', results: r?.results ?? [] };
    } catch (e) {
      return rejectWithValue(errorMessage(e, ADMIN_FALLBACK.payouts));
    }
  },
  { condition: (_, { getState }) => getState().admin.userEarnings.payout.status !== 'loading' },
);

export const fetchSiteAnalytics = thunk<SiteAnalytics, { startDate: string; endDate: string }>(
  'fetchSiteAnalytics',
  ADMIN_FALLBACK.analytics,
  async (range) => {
    const r = await adminApi.analytics({ startDate: range.startDate || undefined, endDate: range.endDate || undefined });
    if (!r?.data) throw new Error(ADMIN_FALLBACK.analytics);
    return r.data;
  },
);

export const fetchEmailStatuses = thunk<{ items: EmailStatus[]; total: number; totalPages: number; page: number }, { page?: number; type?: string; email?: string }>(
  'fetchEmailStatuses',
  ADMIN_FALLBACK.emailStatuses,
  async (arg, { getState }) => {
    const s = getState().admin.emailStatuses;
    const q = { page: arg.page ?? s.page, type: arg.type ?? s.type, email: arg.email ?? s.email };
    const r = q.email
      ? await adminApi.emailStatus({ email: q.email, type: q.type || undefined, page: q.page })
      : await adminApi.emailStatuses({ type: q.type || undefined, page: q.page });
    const total = Number(r?.total ?? 0);
    return { items: r?.logs ?? [], total, totalPages: Number(r?.totalPages ?? totalPagesOf(total)), page: Number(r?.page ?? q.page) };
  },
);

/** Queues a retry (the server answers 202 at once); its progress arrives as `adminJobProgress`. */
export const retryFailedEmails = thunk<{ message: string; results: EmailStatus[]; jobId: string | null }, string>('retryFailedEmails', ADMIN_FALLBACK.retryEmails, async (type) => {
  const r = await adminApi.retryFailedEmails(type);
  return { message: r?.message ?? 'Retry started', results: r?.results ?? [], jobId: r?.jobId ?? null };
});

/** Reads a finished retry job: its outcome and per-message results. */
export const fetchRetryJob = thunk<{ message: string; results: EmailStatus[]; job: AdminJob }, string>('fetchRetryJob', ADMIN_FALLBACK.job, async (id) => {
  const r = await adminApi.job(id);
  const job = r?.job;
  return {
    message: job?.message ?? 'Retry finished',
    results: job?.results ?? [],
    job: { jobId: id, kind: job?.kind ?? '', status: job?.status ?? 'done', done: Number(job?.done ?? 0), total: job?.total ?? null, message: job?.message ?? null },
  };
});

export const fetchEmailReports = thunk<{ items: EmailReport[]; total: number; totalPages: number; page: number }, { page?: number; date?: string }>(
  'fetchEmailReports',
  ADMIN_FALLBACK.dailyReport,
  async (arg, { getState }) => {
    const s = getState().admin.emailReports;
    const q = { page: arg.page ?? s.page, date: arg.date ?? s.date };
    const r = await adminApi.dailyReport({ page: q.page, date: q.date || undefined });
    const total = Number(r?.total ?? 0);
    return { items: r?.logs ?? [], total, totalPages: Number(r?.totalPages ?? totalPagesOf(total)), page: Number(r?.page ?? q.page) };
  },
);

export const fetchBannerNotifications = thunk<BannerNotice[], void>('fetchBannerNotifications', ADMIN_FALLBACK.fetchBanners, async () => {
  const r = await adminApi.banners();
  return r?.notifications ?? [];
});

export interface NewBanner {
  title: string;
  message: string;
  region: string;
  link?: string;
  expiresAt?: string;
  sticky?: boolean;
}

export const createBannerNotification = thunk<{ banner: BannerNotice; message: string }, NewBanner>(
  'createBannerNotification',
  ADMIN_FALLBACK.createBanner,
  async (body) => {
    const r = await adminApi.createBanner(body);
    if (!r?.notification) throw new Error(ADMIN_FALLBACK.createBanner);
    return { banner: r.notification, message: r.message ?? 'Banner created' };
  },
);

export const dismissBannerNotification = thunk<string, string>('dismissBannerNotification', ADMIN_FALLBACK.dismissBanner, async (id) => {
  await adminApi.dismissBanner(id);
  return id;
});

export const deactivateBannerNotification = thunk<string, string>('deactivateBannerNotification', ADMIN_FALLBACK.deactivateBanner, async (id) => {
  await adminApi.deactivateBanner(id);
  return id;
});

export const deleteAllBannerNotifications = thunk<string, void>('deleteAllBannerNotifications', ADMIN_FALLBACK.deleteAllBanners, async () => {
  const r = await adminApi.deleteAllBanners();
  return r?.message ?? 'All banners deleted';
});

export const fetchPlans = thunk<{ items: Plan[]; total: number; totalPages: number; page: number }, number | void>(
  'fetchPlans',
  ADMIN_FALLBACK.fetchPlans,
  async (page, { getState }) => {
    const p = page ?? getState().admin.plans.page;
    const r = await adminApi.plans({ page: p, includeDeleted: true });
    const total = Number(r?.total ?? 0);
    return { items: r?.plans ?? [], total, totalPages: Number(r?.totalPages ?? totalPagesOf(total)), page: Number(r?.page ?? p) };
  },
);

/** Plan status toggles between active and inactive. */
export const togglePlanStatus = thunk<{ planId: string; status: string; plan: Plan | null; message: string }, { planId: string; status: string }>(
  'togglePlanStatus',
  ADMIN_FALLBACK.togglePlanStatus,
  async ({ planId, status }) => {
    const next = status === 'active' ? 'inactive' : 'active';
    const r = await adminApi.setPlanStatus(planId, next);
    return { planId, status: r?.plan?.status ?? next, plan: r?.plan ?? null, message: r?.message ?? '' };
  },
);

/**
 * The criteria in force, read from the administrator's own eligibility check. When the server
 * has none ('Subscription configuration not found'), the administrators' defaults apply.
 */
export const fetchCriteria = thunk<{ criteria: SubscriptionCriteria; message: string | null }, void>(
  'fetchCriteria',
  ADMIN_FALLBACK.checkEligibility,
  async () => {
    try {
      const r = await http.get<UserEligibility>('/subscription/check-eligibility', ADMIN_FALLBACK.checkEligibility);
      return { criteria: r?.criteria ?? ADMIN_DEFAULT_CRITERIA, message: null };
    } catch (e) {
      if (e instanceof ApiError && /Subscription configuration not found/i.test(e.message)) {
        return { criteria: ADMIN_DEFAULT_CRITERIA, message: 'Subscription configuration not found, using default criteria' };
      }
      throw e;
    }
  },
);

export const updateCriteria = thunk<{ criteria: SubscriptionCriteria; message: string }, SubscriptionCriteria>(
  'updateCriteria',
  ADMIN_FALLBACK.updateCriteria,
  async (criteria) => {
    const r = await adminApi.updateCriteria(criteria);
    return { criteria: r?.criteria ?? criteria, message: r?.message ?? 'Criteria updated' };
  },
);

export const checkUserEligibility = thunk<UserEligibility & { userId: string }, string>(
  'checkUserEligibility',
  ADMIN_FALLBACK.checkEligibility,
  async (userId) => ({ ...(await adminApi.checkEligibility(userId)), userId }),
);

type Change = EligibilityChange & { userId: string };

export const toggleUserEligibility = thunk<Change, { userId: string; enable: boolean }>(
  'toggleUserEligibility',
  ADMIN_FALLBACK.toggleEligibility,
  async ({ userId, enable }) => ({ ...(await adminApi.toggleEligibility(userId, enable)), userId }),
);

export const grantSubscriptionAccess = thunk<Change, { userId: string; grant: boolean }>(
  'grantSubscriptionAccess',
  ADMIN_FALLBACK.grantAccess,
  async ({ userId, grant }) => ({ ...(await adminApi.grant(userId, grant)), userId }),
);

export const updateUserOverride = thunk<Change, { userId: string; isEligibleForSubscription?: boolean; bypassSubscriptionCriteria?: boolean }>(
  'updateUserOverride',
  ADMIN_FALLBACK.userOverride,
  async ({ userId, ...body }) => ({ ...(await adminApi.userOverride(userId, body)), userId }),
);

export const overrideMilestones = thunk<Change, { userId: string; values: Partial<MilestoneOverride> }>(
  'overrideMilestones',
  ADMIN_FALLBACK.milestones,
  async ({ userId, values }) => ({ ...(await adminApi.milestones(userId, values)), userId }),
);

export const resetMilestones = thunk<Change, string>('resetMilestones', ADMIN_FALLBACK.resetMilestones, async (userId) => ({
  ...(await adminApi.resetMilestones(userId)),
  userId,
}));

export const fetchAuditLog = thunk<{ items: AuditEntry[]; total: number; totalPages: number; page: number }, { page?: number; action?: string; actorId?: string }>(
  'fetchAuditLog',
  ADMIN_FALLBACK.auditLog,
  async (arg, { getState }) => {
    const s = getState().admin.auditLog;
    const q = { page: arg.page ?? s.page, action: arg.action ?? s.filter.action, actorId: arg.actorId ?? s.filter.actorId };
    const r = await adminApi.auditLog({ page: q.page, action: q.action || undefined, actorId: q.actorId || undefined });
    const total = Number(r?.total ?? 0);
    return { items: r?.logs ?? [], total, totalPages: Number(r?.totalPages ?? totalPagesOf(total)), page: Number(r?.page ?? q.page) };
  },
);

export const fetchFeedbacks = thunk<{ items: Feedback[]; total: number; totalPages: number; page: number }, number | void>(
  'fetchFeedbacks',
  ADMIN_FALLBACK.feedbacks,
  async (page, { getState }) => {
    const p = page ?? getState().admin.feedbacks.page;
    const r = await adminApi.feedbacks({ page: p });
    const total = Number(r?.total ?? 0);
    return { items: r?.feedbacks ?? [], total, totalPages: Number(r?.totalPages ?? totalPagesOf(total)), page: Number(r?.page ?? p) };
  },
);

export const sendFeedbackPrompt = thunk<string, { userId: string; message: string }>('sendFeedbackPrompt', ADMIN_FALLBACK.feedbackPrompt, async ({ userId, message }) => {
  const r = await adminApi.feedbackPrompt(userId, message);
  return r?.message ?? 'Feedback prompt sent';
});

// ── The slice ──────────────────────────────────────────────────────────────────────────────

type Draft = AdminState;

function loading(list: { status: Status; error: string | null }) {
  list.status = 'loading';
  list.error = null;
}

function loaded<T>(list: PagedList<T>, r: { items: T[]; total: number; totalPages: number; page: number }) {
  list.items = r.items;
  list.total = r.total;
  list.totalPages = r.totalPages;
  list.page = r.page;
  list.status = 'succeeded';
  list.error = null;
}

function failed(list: { status: Status; error: string | null }, error: string | undefined, fallback: string) {
  list.status = 'failed';
  list.error = error ?? fallback;
}

function updateUser(state: Draft, userId: string, change: Partial<AdminUser>) {
  for (const list of [state.users.items, state.allUsers]) {
    const user = list.find((u) => u._id === userId);
    if (user) Object.assign(user, change);
  }
}

/** An eligibility answer: the assessment, the switches, and the user in the list. */
function applyEligibility(state: Draft, change: Change) {
  const info = change.overrideInfo ?? change.eligibility?.overrideInfo ?? null;
  if (change.eligibility) state.userEligibility.value = { ...change.eligibility, userId: change.userId };
  state.userEligibility.userId = change.userId;
  state.userEligibility.status = 'succeeded';
  state.userEligibility.error = null;
  state.userEligibility.message = change.message ?? null;
  if (info) state.overrideInfo = info;
  const user = change.user;
  if (user) {
    updateUser(state, change.userId, {
      isEligibleForSubscription: user.isEligibleForSubscription,
      bypassSubscriptionCriteria: user.bypassSubscriptionCriteria,
      milestoneOverride: user.milestoneOverride,
    });
  }
}

function findReport(state: Draft, payload: Record<string, unknown>) {
  const id = idOf(payload, 'reportId', '_id', 'id');
  return state.reports.items.find((r) => r._id === id);
}

const adminSlice = createSlice({
  name: 'admin',
  initialState: initialAdminState,
  reducers: {
    userQueryChanged(state, action: PayloadAction<Partial<AdminState['users']['query']>>) {
      state.users.query = { ...state.users.query, ...action.payload };
      state.users.page = 1;
    },
    postQueryChanged(state, action: PayloadAction<Partial<AdminState['posts']['query']>>) {
      state.posts.query = { ...state.posts.query, ...action.payload };
      state.posts.page = 1;
    },
    analyticsRangeChanged(state, action: PayloadAction<{ startDate: string; endDate: string }>) {
      state.analytics.range = action.payload;
    },
    emailFilterChanged(state, action: PayloadAction<{ type?: string; email?: string }>) {
      if (action.payload.type !== undefined) state.emailStatuses.type = action.payload.type;
      if (action.payload.email !== undefined) state.emailStatuses.email = action.payload.email;
      state.emailStatuses.page = 1;
    },
    emailReportDateChanged(state, action: PayloadAction<string>) {
      state.emailReports.date = action.payload;
      state.emailReports.page = 1;
    },
    auditFilterChanged(state, action: PayloadAction<Partial<AdminState['auditLog']['filter']>>) {
      state.auditLog.filter = { ...state.auditLog.filter, ...action.payload };
      state.auditLog.page = 1;
    },
    adminMessageCleared(state) {
      state.message = null;
      state.error = null;
    },
    /** Clearing a milestone override sets all four thresholds to null (locally, before the answer). */
    milestonesCleared(state) {
      if (state.overrideInfo) state.overrideInfo.milestoneOverride = { ...EMPTY_MILESTONES };
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionUserChanged, () => initialAdminState())
      // Admins' data loads when their session joins adminRoom (seed 001 §6).
      .addCase(initUserSocket.fulfilled, (state, action) => {
        if (action.payload.role !== 'admin') return initialAdminState();
        return state;
      })
      // Overview
      .addCase(fetchOverview.pending, (state) => loading(state.overview))
      .addCase(fetchOverview.fulfilled, (state, action) => {
        state.overview = { data: action.payload, status: 'succeeded', error: null };
      })
      .addCase(fetchOverview.rejected, (state, action) => failed(state.overview, action.payload, ADMIN_FALLBACK.overview))
      // Users
      .addCase(fetchUsers.pending, (state) => loading(state.users))
      .addCase(fetchUsers.fulfilled, (state, action) => loaded(state.users, { ...action.payload, items: action.payload.users }))
      .addCase(fetchUsers.rejected, (state, action) => failed(state.users, action.payload, ADMIN_FALLBACK.fetchUsers))
      .addCase(searchAllUsers.fulfilled, (state, action) => {
        state.allUsers = action.payload;
      })
      .addCase(toggleBlockUser.fulfilled, (state, action) => {
        updateUser(state, action.payload.userId, { blocked: messageSaysBlocked(action.payload.message) });
        state.message = action.payload.message;
        state.error = null;
      })
      .addCase(toggleUserRole.fulfilled, (state, action) => {
        updateUser(state, action.payload.userId, { role: messageSaysAdmin(action.payload.message) ? 'admin' : 'user' });
        state.message = action.payload.message;
        state.error = null;
      })
      .addCase(deleteUser.fulfilled, (state, action) => {
        removeFrom(state.users, action.payload.userId);
        state.allUsers = state.allUsers.filter((u) => u._id !== action.payload.userId);
        state.message = action.payload.message;
        state.error = null;
      })
      // Posts
      .addCase(fetchPosts.pending, (state) => {
        loading(state.posts);
        state.posts.message = null;
      })
      .addCase(fetchPosts.fulfilled, (state, action) => {
        loaded(state.posts, { ...action.payload, items: action.payload.posts });
        state.posts.message = action.payload.message;
      })
      .addCase(fetchPosts.rejected, (state, action) => failed(state.posts, action.payload, ADMIN_FALLBACK.fetchPosts))
      .addCase(toggleBlockPost.fulfilled, (state, action) => {
        const post = state.posts.items.find((p) => p._id === action.payload.postId);
        if (post) post.blocked = action.payload.blocked;
        state.message = action.payload.message;
        state.error = null;
      })
      .addCase(deletePost.fulfilled, (state, action) => {
        removeFrom(state.posts, action.payload.postId);
        state.message = action.payload.message;
        state.error = null;
      })
      .addCase(socketEvents.postBlockToggled, (state, action) => {
        const post = state.posts.items.find((p) => p._id === action.payload.postId);
        if (post) post.blocked = action.payload.blocked;
      })
      // Contact messages
      .addCase(fetchContactMessages.pending, (state) => loading(state.contactMessages))
      .addCase(fetchContactMessages.fulfilled, (state, action) => loaded(state.contactMessages, action.payload))
      .addCase(fetchContactMessages.rejected, (state, action) => failed(state.contactMessages, action.payload, ADMIN_FALLBACK.fetchContactMessages))
      .addCase(toggleMessageHandled.fulfilled, (state, action) => {
        const m = state.contactMessages.items.find((i) => i._id === action.payload.id);
        if (m && m.isHandled !== action.payload.isHandled && state.overview.data) {
          state.overview.data.unreadContactMessages = Math.max(0, state.overview.data.unreadContactMessages + (action.payload.isHandled ? -1 : 1));
        }
        if (m) m.isHandled = action.payload.isHandled;
        state.message = action.payload.message;
        state.error = null;
      })
      .addCase(replyToContact.fulfilled, (state, action) => {
        const m = state.contactMessages.items.find((i) => i._id === action.payload.id);
        if (m) {
          if (action.payload.data) Object.assign(m, action.payload.data);
          m.isHandled = true;
        }
        state.message = action.payload.message;
        state.error = null;
      })
      .addCase(socketEvents.contactMessageReceived, (state, action) => {
        const message = contactFromEvent(action.payload);
        if (!message) return;
        if (prependLive(state.contactMessages, message) && state.overview.data) {
          state.overview.data.unreadContactMessages += message.isHandled ? 0 : 1;
          state.overview.data.today.contactMessages += 1;
        }
      })
      .addCase(socketEvents.contactMessageReplied, (state, action) => {
        const id = idOf(action.payload, 'messageId', '_id', 'id');
        const m = state.contactMessages.items.find((i) => i._id === id);
        if (m && !m.isHandled && state.overview.data) state.overview.data.unreadContactMessages = Math.max(0, state.overview.data.unreadContactMessages - 1);
        if (m) {
          m.isHandled = true;
          m.reply = { ...(m.reply ?? { subject: '', message: '' }), repliedAt: str(action.payload.repliedAt) || undefined };
        }
      })
      // Reports
      .addCase(fetchReports.pending, (state) => loading(state.reports))
      .addCase(fetchReports.fulfilled, (state, action) => loaded(state.reports, action.payload))
      .addCase(fetchReports.rejected, (state, action) => failed(state.reports, action.payload, ADMIN_FALLBACK.fetchReports))
      .addCase(reviewReport.fulfilled, (state, action) => {
        const r = state.reports.items.find((i) => i._id === action.payload.id);
        if (r && !r.isReviewed && state.overview.data) state.overview.data.openReports = Math.max(0, state.overview.data.openReports - 1);
        if (r) {
          r.isReviewed = true;
          r.forwardedToAuthor = action.payload.report?.forwardedToAuthor ?? (r.forwardedToAuthor || action.payload.forwardToAuthor);
        }
        state.message = action.payload.message;
        state.error = null;
      })
      .addCase(sendReportNotification.fulfilled, (state, action) => {
        const r = state.reports.items.find((i) => i._id === action.payload.reportId);
        if (r) r.noticesSent = (r.noticesSent ?? 0) + 1;
        state.message = action.payload.message;
        state.error = null;
      })
      .addCase(acknowledgeReport.fulfilled, (state, action) => {
        const r = state.reports.items.find((i) => i._id === action.payload.id);
        if (r) {
          r.isAcknowledged = true;
          r.acknowledgedAt = action.payload.report?.acknowledgedAt ?? r.acknowledgedAt ?? null;
        }
      })
      .addCase(socketEvents.reportReceived, (state, action) => {
        const report = reportFromEvent(action.payload);
        if (!report) return;
        if (prependLive(state.reports, report) && state.overview.data) {
          state.overview.data.openReports += report.isReviewed ? 0 : 1;
          state.overview.data.today.reports += 1;
        }
      })
      .addCase(socketEvents.reportReviewed, (state, action) => {
        const r = findReport(state, action.payload);
        if (!r) return;
        if (!r.isReviewed && state.overview.data) state.overview.data.openReports = Math.max(0, state.overview.data.openReports - 1);
        r.isReviewed = true;
        if (typeof action.payload.forwardedToAuthor === 'boolean') r.forwardedToAuthor = action.payload.forwardedToAuthor;
      })
      .addCase(socketEvents.reportAcknowledged, (state, action) => {
        const r = findReport(state, action.payload);
        if (!r) return;
        r.isAcknowledged = true;
        r.acknowledgedAt = str(action.payload.acknowledgedAt) || r.acknowledgedAt || null;
      })
      // Overview, live
      .addCase(socketEvents.onlineUsersCountReceived, (state, action) => {
        if (state.overview.data) state.overview.data.online.count = action.payload;
      })
      .addCase(socketEvents.appealReceived, (state) => {
        if (state.overview.data) state.overview.data.pendingAppeals += 1;
      })
      // Earnings and payouts
      .addCase(fetchUserEarnings.pending, (state) => loading(state.userEarnings))
      .addCase(fetchUserEarnings.fulfilled, (state, action) => {
        loaded(state.userEarnings, action.payload);
        state.userEarnings.minPayout = action.payload.minPayout;
      })
      .addCase(fetchUserEarnings.rejected, (state, action) => failed(state.userEarnings, action.payload, ADMIN_FALLBACK.fetchEarnings))
      .addCase(processPayouts.pending, (state) => {
        state.userEarnings.payout = { status: 'loading', message: null, error: null, results: [] };
      })
      .addCase(processPayouts.fulfilled, (state, action) => {
        state.userEarnings.payout = { status: 'succeeded', message: action.payload.message, error: null, results: action.payload.results };
      })
      .addCase(processPayouts.rejected, (state, action) => {
        state.userEarnings.payout = { status: 'failed', message: null, error: action.payload ?? ADMIN_FALLBACK.payouts, results: [] };
      })
      // Analytics
      .addCase(fetchSiteAnalytics.pending, (state, action) => {
        loading(state.analytics);
        state.analytics.range = action.meta.arg;
      })
      .addCase(fetchSiteAnalytics.fulfilled, (state, action) => {
        state.analytics.data = action.payload;
        state.analytics.status = 'succeeded';
      })
      .addCase(fetchSiteAnalytics.rejected, (state, action) => failed(state.analytics, action.payload, ADMIN_FALLBACK.analytics))
      // Email
      .addCase(fetchEmailStatuses.pending, (state) => loading(state.emailStatuses))
      .addCase(fetchEmailStatuses.fulfilled, (state, action) => loaded(state.emailStatuses, action.payload))
      .addCase(fetchEmailStatuses.rejected, (state, action) =>
        failed(state.emailStatuses, action.payload, action.meta.arg.email || state.emailStatuses.email ? ADMIN_FALLBACK.emailStatus : ADMIN_FALLBACK.emailStatuses),
      )
      .addCase(retryFailedEmails.pending, (state) => {
        state.emailStatuses.retry = { status: 'loading', message: null, error: null, results: [] };
      })
      .addCase(retryFailedEmails.fulfilled, (state, action) => {
        state.emailStatuses.retry = { status: 'succeeded', message: action.payload.message, error: null, results: action.payload.results, jobId: action.payload.jobId };
        for (const result of action.payload.results) {
          const row = state.emailStatuses.items.find((i) => i._id === result._id);
          if (row) Object.assign(row, result);
        }
      })
      .addCase(retryFailedEmails.rejected, (state, action) => {
        state.emailStatuses.retry = { status: 'failed', message: null, error: action.payload ?? ADMIN_FALLBACK.retryEmails, results: [] };
      })
      .addCase(fetchRetryJob.fulfilled, (state, action) => {
        state.jobs[action.meta.arg] = action.payload.job;
        if (state.emailStatuses.retry.jobId !== action.meta.arg) return;
        state.emailStatuses.retry = { status: 'succeeded', message: action.payload.message, error: null, results: action.payload.results, jobId: action.meta.arg };
        for (const result of action.payload.results) {
          const row = state.emailStatuses.items.find((i) => i._id === result._id);
          if (row) Object.assign(row, result);
        }
      })
      .addCase(socketEvents.adminJobProgressReceived, (state, action) => {
        const p = action.payload;
        const id = typeof p.jobId === 'string' ? p.jobId : typeof p._id === 'string' ? p._id : null;
        if (!id) return;
        state.jobs[id] = {
          jobId: id,
          kind: String(p.kind ?? ''),
          status: String(p.status ?? 'running'),
          done: Number(p.done ?? 0) || 0,
          total: p.total == null ? null : Number(p.total),
          message: typeof p.message === 'string' ? p.message : null,
        };
      })
      .addCase(fetchEmailReports.pending, (state) => loading(state.emailReports))
      .addCase(fetchEmailReports.fulfilled, (state, action) => loaded(state.emailReports, action.payload))
      .addCase(fetchEmailReports.rejected, (state, action) => failed(state.emailReports, action.payload, ADMIN_FALLBACK.dailyReport))
      // Banners
      .addCase(fetchBannerNotifications.pending, (state) => loading(state.bannerNotifications))
      .addCase(fetchBannerNotifications.fulfilled, (state, action) => {
        state.bannerNotifications = { items: action.payload, status: 'succeeded', error: null };
      })
      .addCase(fetchBannerNotifications.rejected, (state, action) => failed(state.bannerNotifications, action.payload, ADMIN_FALLBACK.fetchBanners))
      .addCase(createBannerNotification.fulfilled, (state, action) => {
        const { banner } = action.payload;
        state.bannerNotifications.items = [banner, ...state.bannerNotifications.items.filter((b) => b._id !== banner._id)];
        state.message = action.payload.message;
        state.error = null;
      })
      .addCase(dismissBannerNotification.fulfilled, (state, action) => {
        state.bannerNotifications.items = state.bannerNotifications.items.filter((b) => b._id !== action.payload);
      })
      .addCase(deactivateBannerNotification.fulfilled, (state, action) => {
        state.bannerNotifications.items = state.bannerNotifications.items.filter((b) => b._id !== action.payload);
        state.message = 'Banner deactivated';
        state.error = null;
      })
      .addCase(deleteAllBannerNotifications.fulfilled, (state, action) => {
        state.bannerNotifications.items = [];
        state.message = action.payload;
        state.error = null;
      })
      // Plans and eligibility
      .addCase(fetchPlans.pending, (state) => loading(state.plans))
      .addCase(fetchPlans.fulfilled, (state, action) => loaded(state.plans, action.payload))
      .addCase(fetchPlans.rejected, (state, action) => failed(state.plans, action.payload, ADMIN_FALLBACK.fetchPlans))
      .addCase(togglePlanStatus.fulfilled, (state, action) => {
        const plan = state.plans.items.find((p) => p._id === action.payload.planId);
        if (plan) plan.status = action.payload.status;
        state.message = action.payload.message || `Plan is now ${action.payload.status}`;
        state.error = null;
      })
      .addCase(fetchCriteria.pending, (state) => loading(state.subscriptionCriteria))
      .addCase(fetchCriteria.fulfilled, (state, action) => {
        state.subscriptionCriteria = { value: action.payload.criteria, status: 'succeeded', error: null, message: action.payload.message };
      })
      .addCase(fetchCriteria.rejected, (state, action) => failed(state.subscriptionCriteria, action.payload, ADMIN_FALLBACK.checkEligibility))
      .addCase(updateCriteria.pending, (state) => {
        state.subscriptionCriteria.status = 'loading';
        state.subscriptionCriteria.error = null;
        state.subscriptionCriteria.message = null;
      })
      .addCase(updateCriteria.fulfilled, (state, action) => {
        state.subscriptionCriteria = { value: action.payload.criteria, status: 'succeeded', error: null, message: action.payload.message };
      })
      .addCase(updateCriteria.rejected, (state, action) => failed(state.subscriptionCriteria, action.payload, ADMIN_FALLBACK.updateCriteria))
      .addCase(checkUserEligibility.pending, (state, action) => {
        state.userEligibility = { userId: action.meta.arg, value: null, status: 'loading', error: null, message: null };
      })
      .addCase(checkUserEligibility.fulfilled, (state, action) => {
        const { overrideInfo, ...rest } = action.payload;
        state.userEligibility = { userId: action.payload.userId, value: action.payload, status: 'succeeded', error: null, message: null };
        state.overrideInfo = overrideInfo ?? null;
        updateUser(state, action.payload.userId, {
          ...(overrideInfo
            ? { isEligibleForSubscription: overrideInfo.isEligibleForSubscription, bypassSubscriptionCriteria: overrideInfo.bypassSubscriptionCriteria }
            : { isEligibleForSubscription: rest.isEligible }),
        });
      })
      .addCase(checkUserEligibility.rejected, (state, action) => failed(state.userEligibility, action.payload, ADMIN_FALLBACK.checkEligibility))
      .addCase(resetMilestones.pending, (state) => {
        if (state.overrideInfo) state.overrideInfo.milestoneOverride = { ...EMPTY_MILESTONES };
      });
    for (const change of [toggleUserEligibility, grantSubscriptionAccess, updateUserOverride, overrideMilestones, resetMilestones]) {
      builder.addCase(change.fulfilled, (state, action) => applyEligibility(state, action.payload));
      builder.addCase(change.rejected, (state, action) => {
        state.userEligibility.error = action.payload ?? ADMIN_FALLBACK.checkEligibility;
        state.userEligibility.message = null;
      });
    }
    builder
      // Audit log and feedback
      .addCase(fetchAuditLog.pending, (state) => loading(state.auditLog))
      .addCase(fetchAuditLog.fulfilled, (state, action) => loaded(state.auditLog, action.payload))
      .addCase(fetchAuditLog.rejected, (state, action) => failed(state.auditLog, action.payload, ADMIN_FALLBACK.auditLog))
      .addCase(fetchFeedbacks.pending, (state) => loading(state.feedbacks))
      .addCase(fetchFeedbacks.fulfilled, (state, action) => loaded(state.feedbacks, action.payload))
      .addCase(fetchFeedbacks.rejected, (state, action) => failed(state.feedbacks, action.payload, ADMIN_FALLBACK.feedbacks))
      .addCase(sendFeedbackPrompt.fulfilled, (state, action) => {
        state.message = action.payload;
        state.error = null;
      });
    // Every failed action says why, with the server's message or the spec's fallback.
    for (const [action, fallback] of [
      [toggleBlockUser, ADMIN_FALLBACK.toggleBlockUser],
      [toggleUserRole, ADMIN_FALLBACK.toggleUserRole],
      [deleteUser, ADMIN_FALLBACK.deleteUser],
      [toggleBlockPost, ADMIN_FALLBACK.toggleBlockPost],
      [deletePost, ADMIN_FALLBACK.deletePost],
      [toggleMessageHandled, ADMIN_FALLBACK.toggleMessage],
      [replyToContact, ADMIN_FALLBACK.replyContact],
      [reviewReport, ADMIN_FALLBACK.reviewReport],
      [sendReportNotification, ADMIN_FALLBACK.sendNotification],
      [createBannerNotification, ADMIN_FALLBACK.createBanner],
      [dismissBannerNotification, ADMIN_FALLBACK.dismissBanner],
      [deactivateBannerNotification, ADMIN_FALLBACK.deactivateBanner],
      [deleteAllBannerNotifications, ADMIN_FALLBACK.deleteAllBanners],
      [togglePlanStatus, ADMIN_FALLBACK.togglePlanStatus],
      [sendFeedbackPrompt, ADMIN_FALLBACK.feedbackPrompt],
    ] as const) {
      builder.addCase(action.rejected, (state, a) => {
        state.error = (a.payload as string | undefined) ?? fallback;
        state.message = null;
      });
    }
  },
});

export const {
  userQueryChanged,
  postQueryChanged,
  analyticsRangeChanged,
  emailFilterChanged,
  emailReportDateChanged,
  auditFilterChanged,
  adminMessageCleared,
  milestonesCleared,
} = adminSlice.actions;
export const adminReducer = adminSlice.reducer;
// Loaded on demand: the slice joins the store when this module loads.
injectReducers({ admin: adminReducer });

type WithAdmin = { admin: AdminState };
export const selectAdmin = (state: WithAdmin) => state.admin;
export const selectOverview = (state: WithAdmin) => state.admin.overview;
