/**
 * The administrators' calls (seed 001 §7 "Administration", "Subscription management (admin)",
 * seed 000 §7 feedback) with the fallback texts of seed 001 §8 "Admin".
 */
import { http, request } from '@/lib/http';
import type {
  AdminPost,
  AdminUser,
  AuditEntry,
  BannerNotice,
  ContactMessage,
  EmailReport,
  EmailStatus,
  Feedback,
  OverrideInfo,
  Overview,
  PayoutResult,
  Plan,
  Report,
  SiteAnalytics,
  SubscriptionCriteria,
  UserEarning,
  UserEligibility,
} from './admin-types';

export const ADMIN_FALLBACK = {
  fetchUsers: 'Failed to fetch users',
  toggleBlockUser: 'Failed to toggle block user',
  toggleUserRole: 'Failed to toggle user role',
  deleteUser: 'Failed to delete user',
  fetchPosts: 'Failed to fetch posts',
  toggleBlockPost: 'Failed to toggle block post',
  deletePost: 'Failed to delete post',
  createContact: 'Failed to create contact message',
  fetchContactMessages: 'Failed to fetch contact messages',
  toggleMessage: 'Failed to toggle message status',
  replyContact: 'Failed to reply to contact message',
  createReport: 'Failed to create report',
  fetchReports: 'Failed to fetch reported posts',
  reviewReport: 'Failed to review report',
  sendNotification: 'Failed to send notification',
  acknowledgeReport: 'Failed to acknowledge report',
  fetchEarnings: "Failed to fetch users' earnings",
  payouts: 'Failed to process bulk payouts',
  analytics: 'Failed to fetch site analytics',
  emailStatus: 'Failed to fetch email status',
  emailStatuses: 'Failed to fetch email statuses',
  retryEmails: 'Failed to retry failed emails',
  job: 'Failed to fetch the job',
  readingTime: 'Failed to record reading time',
  readingDetails: 'Failed to fetch reading details',
  dailyReport: 'Failed to fetch daily post email report',
  fetchBanners: 'Failed to fetch banner notifications',
  createBanner: 'Failed to create banner notification',
  dismissBanner: 'Failed to dismiss notification',
  deactivateBanner: 'Failed to deactivate notification',
  deleteAllBanners: 'Failed to delete all notifications',
  downloadExcel: 'Failed to download Excel',
  fetchPlans: 'Failed to fetch subscription plans',
  toggleEligibility: 'Failed to toggle user eligibility',
  updateCriteria: 'Failed to update eligibility criteria',
  checkEligibility: 'Failed to check user eligibility',
  togglePlanStatus: 'Failed to toggle subscription plan status',
  grantAccess: 'Failed to grant subscription access',
  userOverride: 'Failed to update user eligibility override',
  milestones: 'Failed to override user milestones',
  resetMilestones: 'Failed to reset user milestones',
  // Seed 000 §8 "Consent and feedback".
  feedbacks: 'Failed to fetch feedbacks',
  feedbackPrompt: 'Failed to send feedback prompt',
  // Calls the seed does not list (their texts are ours).
  overview: 'Failed to fetch the overview',
  auditLog: 'Failed to fetch the audit log',
  report: 'Failed to fetch the report',
} as const;

/** Seed 001 §8 special case: a 502 on the admin post list. */
export const SERVER_UNAVAILABLE = 'Server unavailable, please try again later';
/** The workbook's file name (seed 001 §7 "saved as a spreadsheet file with a fixed name"). */
export const EXPORT_FILE_NAME = 'pressroom-export.xlsx';
/** Admin defaults (seed 001 §9). */
export const ADMIN_PAGE_SIZE = 10;
/** The workbook is written while it downloads; a large site takes longer than a JSON call. */
export const EXPORT_TIMEOUT_MS = 120_000;

export interface Page {
  page?: number;
  limit?: number;
}

export interface UserQuery extends Page {
  search?: string;
  sortField?: string;
  sortOrder?: 'asc' | 'desc';
}

export interface PostQuery extends Page {
  search?: string;
  sortField?: string;
  sortOrder?: 'asc' | 'desc';
}

type Paged<K extends string, T> = { [key in K]?: T[] } & { total?: number; totalPages?: number; page?: number };

const id = encodeURIComponent;

export const adminApi = {
  overview: () => http.get<Overview>('/admin/overview', ADMIN_FALLBACK.overview),

  users: (q: UserQuery) =>
    http.get<{ users?: AdminUser[]; totalUsers?: number; total?: number; totalPages?: number; page?: number }>(
      '/admin/users',
      ADMIN_FALLBACK.fetchUsers,
      { page: q.page, limit: q.limit ?? ADMIN_PAGE_SIZE, search: q.search, sortField: q.sortField, sortOrder: q.sortOrder },
    ),
  toggleBlockUser: (userId: string) =>
    http.patch<{ message?: string; data?: AdminUser }>(`/admin/users/block/${id(userId)}`, {}, ADMIN_FALLBACK.toggleBlockUser),
  toggleUserRole: (userId: string) =>
    http.patch<{ message?: string; data?: AdminUser }>(`/admin/users/role/${id(userId)}`, {}, ADMIN_FALLBACK.toggleUserRole),
  deleteUser: (userId: string) =>
    http.delete<{ message?: string; removed?: Record<string, number> }>(`/admin/users/${id(userId)}`, ADMIN_FALLBACK.deleteUser),

  posts: (q: PostQuery) =>
    http.get<{ posts?: AdminPost[]; totalCount?: number; totalPages?: number; page?: number }>('/admin/posts', ADMIN_FALLBACK.fetchPosts, {
      page: q.page,
      limit: q.limit ?? ADMIN_PAGE_SIZE,
      search: q.search,
      sortField: q.sortField,
      sortOrder: q.sortOrder,
    }),
  toggleBlockPost: (postId: string) =>
    http.patch<{ message?: string; blocked?: boolean; postId?: string }>(`/admin/posts/block/${id(postId)}`, {}, ADMIN_FALLBACK.toggleBlockPost),
  deletePost: (postId: string) => http.delete<{ message?: string }>(`/admin/posts/${id(postId)}`, ADMIN_FALLBACK.deletePost),

  contactMessages: (q: Page) =>
    http.get<{ messages?: ContactMessage[]; totalMessages?: number; totalPages?: number; page?: number }>(
      '/admin/contact-messages',
      ADMIN_FALLBACK.fetchContactMessages,
      { page: q.page, limit: q.limit ?? ADMIN_PAGE_SIZE },
    ),
  toggleHandled: (messageId: string) =>
    http.patch<{ message?: string; isHandled?: boolean; data?: ContactMessage }>(
      `/admin/contact-messages/${id(messageId)}/handled`,
      {},
      ADMIN_FALLBACK.toggleMessage,
    ),
  replyContact: (messageId: string, body: { subject: string; message: string }) =>
    http.post<{ message?: string; isHandled?: boolean; data?: ContactMessage }>(`/admin/reply-contact/${id(messageId)}`, body, ADMIN_FALLBACK.replyContact),

  reports: (q: Page) =>
    http.get<Paged<'reports', Report>>('/admin/reports', ADMIN_FALLBACK.fetchReports, { page: q.page, limit: q.limit ?? ADMIN_PAGE_SIZE }),
  reviewReport: (reportId: string, forwardToAuthor: boolean) =>
    http.patch<{ message?: string; report?: Report }>(`/admin/reports/${id(reportId)}`, { forwardToAuthor }, ADMIN_FALLBACK.reviewReport),
  sendReportNotice: (body: { reportId: string; subject: string; message: string }) =>
    http.post<{ message?: string; emailSent?: boolean }>('/admin/replies/send-notification', body, ADMIN_FALLBACK.sendNotification),
  acknowledgeReport: (reportId: string) =>
    http.post<{ message?: string; report?: Report }>(`/admin/acknowledge-report/${id(reportId)}`, {}, ADMIN_FALLBACK.acknowledgeReport),

  earnings: (q: Page) =>
    http.get<{ userEarnings?: UserEarning[]; total?: number; totalPages?: number; page?: number; minPayout?: number; mode?: string }>(
      '/earning/admin/earnings',
      ADMIN_FALLBACK.fetchEarnings,
      { page: q.page, limit: q.limit ?? ADMIN_PAGE_SIZE },
    ),
  payouts: (users: string[]) =>
    http.post<{ message?: string; paid?: number; skipped?: number; failed?: number; results?: PayoutResult[]; mode?: string }>(
      '/earning/admin/payouts',
      { users },
      ADMIN_FALLBACK.payouts,
    ),

  analytics: (range: { startDate?: string; endDate?: string }) =>
    http.get<{ data?: SiteAnalytics }>('/admin/analytics', ADMIN_FALLBACK.analytics, range),

  emailStatus: (q: Page & { email: string; type?: string }) =>
    http.get<Paged<'logs', EmailStatus> & { email?: string }>('/admin/email-status', ADMIN_FALLBACK.emailStatus, {
      email: q.email,
      type: q.type,
      page: q.page,
      limit: q.limit ?? ADMIN_PAGE_SIZE,
    }),
  emailStatuses: (q: Page & { type?: string }) =>
    http.get<Paged<'logs', EmailStatus>>('/admin/all-email-statuses', ADMIN_FALLBACK.emailStatuses, {
      type: q.type,
      page: q.page,
      limit: q.limit ?? ADMIN_PAGE_SIZE,
    }),
  retryFailedEmails: (type: string) =>
    http.post<{ message?: string; results?: EmailStatus[]; jobId?: string }>('/admin/retry-failed-emails', { type }, ADMIN_FALLBACK.retryEmails),
  job: (id: string) =>
    http.get<{ job?: AdminJob & { _id?: string; results?: EmailStatus[] } }>(`/admin/jobs/${encodeURIComponent(id)}`, ADMIN_FALLBACK.job),
  dailyReport: (q: Page & { date?: string }) =>
    http.get<Paged<'logs', EmailReport>>('/dailyMail/daily-post-report', ADMIN_FALLBACK.dailyReport, {
      date: q.date,
      page: q.page,
      limit: q.limit ?? ADMIN_PAGE_SIZE,
    }),

  banners: () => http.get<{ notifications?: BannerNotice[] }>('/bannerNotification/get-Notification', ADMIN_FALLBACK.fetchBanners, { all: true }),
  createBanner: (body: { title: string; message: string; region: string; link?: string; expiresAt?: string; sticky?: boolean }) =>
    http.post<{ message?: string; notification?: BannerNotice }>('/bannerNotification/create', body, ADMIN_FALLBACK.createBanner),
  dismissBanner: (bannerId: string) => http.patch(`/bannerNotification/dismiss/${id(bannerId)}`, {}, ADMIN_FALLBACK.dismissBanner),
  deactivateBanner: (bannerId: string) =>
    http.patch<{ message?: string; data?: BannerNotice }>(`/bannerNotification/deactivate/${id(bannerId)}`, {}, ADMIN_FALLBACK.deactivateBanner),
  deleteAllBanners: () => http.delete<{ message?: string }>('/bannerNotification/delete-all', ADMIN_FALLBACK.deleteAllBanners),

  plans: (q: Page & { status?: string; includeDeleted?: boolean }) =>
    http.get<Paged<'plans', Plan>>('/admin/subscriptions/plans', ADMIN_FALLBACK.fetchPlans, {
      page: q.page,
      limit: q.limit ?? ADMIN_PAGE_SIZE,
      status: q.status,
      includeDeleted: q.includeDeleted,
    }),
  setPlanStatus: (planId: string, status: string) =>
    http.patch<{ message?: string; plan?: Plan }>('/admin/subscriptions/plan/status', { planId, status }, ADMIN_FALLBACK.togglePlanStatus),
  updateCriteria: (criteria: Partial<SubscriptionCriteria>) =>
    http.patch<{ message?: string; criteria?: SubscriptionCriteria }>('/admin/subscriptions/criteria', criteria, ADMIN_FALLBACK.updateCriteria),
  checkEligibility: (userId: string) => http.get<UserEligibility>(`/admin/subscriptions/eligibility/${id(userId)}`, ADMIN_FALLBACK.checkEligibility),
  toggleEligibility: (userId: string, enable: boolean) =>
    http.post<EligibilityChange>('/admin/subscriptions/eligibility/toggle', { userId, enable }, ADMIN_FALLBACK.toggleEligibility),
  grant: (userId: string, grant: boolean) => http.post<EligibilityChange>('/admin/subscriptions/grant', { userId, grant }, ADMIN_FALLBACK.grantAccess),
  userOverride: (userId: string, body: { isEligibleForSubscription?: boolean; bypassSubscriptionCriteria?: boolean }) =>
    http.patch<EligibilityChange>(`/admin/subscriptions/user-override/${id(userId)}`, body, ADMIN_FALLBACK.userOverride),
  milestones: (userId: string, body: Partial<Record<keyof OverrideInfo['milestoneOverride'], number | null>>) =>
    http.patch<EligibilityChange>(`/admin/subscriptions/user-milestone/${id(userId)}`, body, ADMIN_FALLBACK.milestones),
  resetMilestones: (userId: string) =>
    http.patch<EligibilityChange>(`/admin/subscriptions/user-milestone-reset/${id(userId)}`, {}, ADMIN_FALLBACK.resetMilestones),

  feedbacks: (q: Page) =>
    http.get<Paged<'feedbacks', Feedback>>('/user/feedback/all', ADMIN_FALLBACK.feedbacks, { page: q.page, limit: q.limit ?? ADMIN_PAGE_SIZE }),
  feedbackPrompt: (userId: string, message: string) =>
    http.post<{ message?: string }>(`/user/feedback/manual/${id(userId)}`, { message }, ADMIN_FALLBACK.feedbackPrompt),

  auditLog: (q: Page & { action?: string; actorId?: string }) =>
    http.get<Paged<'logs', AuditEntry>>('/admin/audit-log', ADMIN_FALLBACK.auditLog, {
      page: q.page,
      limit: q.limit ?? ADMIN_PAGE_SIZE,
      action: q.action,
      actorId: q.actorId,
    }),

  /** The workbook as a Blob (binary, so not through the JSON client). */
  exportWorkbook: () => request<Blob>('/admin/download-csv', { fallback: ADMIN_FALLBACK.downloadExcel, responseType: 'blob', timeoutMs: EXPORT_TIMEOUT_MS }),
};

export interface EligibilityChange {
  message?: string;
  user?: { _id: string; isEligibleForSubscription: boolean; bypassSubscriptionCriteria: boolean; milestoneOverride: OverrideInfo['milestoneOverride'] };
  overrideInfo?: OverrideInfo;
  eligibility?: UserEligibility;
}

/** An administrator's background job as the server reports it (`GET /admin/jobs/{id}`, `adminJobProgress`). */
export interface AdminJob {
  jobId: string;
  kind: string;
  status: 'queued' | 'running' | 'done' | 'failed' | (string & {});
  done: number;
  total: number | null;
  message: string | null;
}
