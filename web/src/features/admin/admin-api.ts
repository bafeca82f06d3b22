/**
 * The administrators' calls (seed 001 §7 "Administration", "Subscription management (admin)",
 * seed 000 §7 feedback) with the fallback texts of seed 001 §8 "Admin".
 */
import type {
  DeleteAdminPostsByIdApiResponse,
  DeleteAdminUsersByIdApiResponse,
  DeleteBannerNotificationDeleteAllApiResponse,
  GetAdminAllEmailStatusesApiResponse,
  GetAdminAnalyticsApiResponse,
  GetAdminAppealsApiResponse,
  GetAdminAuditLogApiResponse,
  GetAdminContactMessagesApiResponse,
  GetAdminEmailStatusApiResponse,
  GetAdminJobsByIdApiResponse,
  GetAdminOverviewApiResponse,
  GetAdminPostsApiResponse,
  GetAdminReportsApiResponse,
  GetAdminSubscriptionsEligibilityByUserIdApiResponse,
  GetAdminSubscriptionsPlansApiResponse,
  GetAdminUsersApiResponse,
  GetBannerNotificationGetNotificationApiResponse,
  GetDailyMailDailyPostReportApiResponse,
  GetEarningAdminEarningsApiResponse,
  GetUserFeedbackAllApiResponse,
  PatchAdminAppealsByIdApiResponse,
  PatchAdminContactMessagesByIdHandledApiResponse,
  PatchAdminPostsBlockByIdApiResponse,
  PatchAdminReportsByIdApiResponse,
  PatchAdminSubscriptionsCriteriaApiResponse,
  PatchAdminSubscriptionsPlanStatusApiResponse,
  PatchAdminSubscriptionsUserMilestoneByUserIdApiResponse,
  PatchAdminSubscriptionsUserMilestoneResetByUserIdApiResponse,
  PatchAdminSubscriptionsUserOverrideByUserIdApiResponse,
  PatchAdminUsersBlockByIdApiResponse,
  PatchAdminUsersRoleByIdApiResponse,
  PatchBannerNotificationDeactivateByIdApiResponse,
  PostAdminAcknowledgeReportByIdApiResponse,
  PostAdminRepliesSendNotificationApiResponse,
  PostAdminReplyContactByIdApiResponse,
  PostAdminRetryFailedEmailsApiResponse,
  PostAdminSubscriptionsEligibilityToggleApiResponse,
  PostAdminSubscriptionsGrantApiResponse,
  PostBannerNotificationCreateApiResponse,
  PostEarningAdminPayoutsApiResponse,
  PostUserFeedbackManualByUserIdApiResponse,
} from '@/api/endpoints';
import { http, request } from '@/lib/http';
import type { AppealDecision, AppealFilter, OverrideInfo, RetryResult, SubscriptionCriteria, UserEligibility } from './admin-types';

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
  fetchAppeals: 'Failed to fetch appeals',
  decideAppeal: 'Failed to decide the appeal',
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


const id = encodeURIComponent;

export const adminApi = {
  overview: () => http.get<GetAdminOverviewApiResponse>('/admin/overview', ADMIN_FALLBACK.overview),

  users: (q: UserQuery) =>
    http.get<GetAdminUsersApiResponse>(
      '/admin/users',
      ADMIN_FALLBACK.fetchUsers,
      { page: q.page, limit: q.limit ?? ADMIN_PAGE_SIZE, search: q.search, sortField: q.sortField, sortOrder: q.sortOrder },
    ),
  toggleBlockUser: (userId: string) =>
    http.patch<PatchAdminUsersBlockByIdApiResponse>(`/admin/users/block/${id(userId)}`, {}, ADMIN_FALLBACK.toggleBlockUser),
  toggleUserRole: (userId: string) =>
    http.patch<PatchAdminUsersRoleByIdApiResponse>(`/admin/users/role/${id(userId)}`, {}, ADMIN_FALLBACK.toggleUserRole),
  deleteUser: (userId: string) =>
    http.delete<DeleteAdminUsersByIdApiResponse>(`/admin/users/${id(userId)}`, ADMIN_FALLBACK.deleteUser),

  posts: (q: PostQuery) =>
    http.get<GetAdminPostsApiResponse>('/admin/posts', ADMIN_FALLBACK.fetchPosts, {
      page: q.page,
      limit: q.limit ?? ADMIN_PAGE_SIZE,
      search: q.search,
      sortField: q.sortField,
      sortOrder: q.sortOrder,
    }),
  toggleBlockPost: (postId: string) =>
    http.patch<PatchAdminPostsBlockByIdApiResponse>(`/admin/posts/block/${id(postId)}`, {}, ADMIN_FALLBACK.toggleBlockPost),
  deletePost: (postId: string) => http.delete<DeleteAdminPostsByIdApiResponse>(`/admin/posts/${id(postId)}`, ADMIN_FALLBACK.deletePost),

  contactMessages: (q: Page) =>
    http.get<GetAdminContactMessagesApiResponse>(
      '/admin/contact-messages',
      ADMIN_FALLBACK.fetchContactMessages,
      { page: q.page, limit: q.limit ?? ADMIN_PAGE_SIZE },
    ),
  toggleHandled: (messageId: string) =>
    http.patch<PatchAdminContactMessagesByIdHandledApiResponse>(
      `/admin/contact-messages/${id(messageId)}/handled`,
      {},
      ADMIN_FALLBACK.toggleMessage,
    ),
  replyContact: (messageId: string, body: { subject: string; message: string }) =>
    http.post<PostAdminReplyContactByIdApiResponse>(`/admin/reply-contact/${id(messageId)}`, body, ADMIN_FALLBACK.replyContact),

  reports: (q: Page) =>
    http.get<GetAdminReportsApiResponse>('/admin/reports', ADMIN_FALLBACK.fetchReports, { page: q.page, limit: q.limit ?? ADMIN_PAGE_SIZE }),
  reviewReport: (reportId: string, forwardToAuthor: boolean) =>
    http.patch<PatchAdminReportsByIdApiResponse>(`/admin/reports/${id(reportId)}`, { forwardToAuthor }, ADMIN_FALLBACK.reviewReport),
  sendReportNotice: (body: { reportId: string; subject: string; message: string }) =>
    http.post<PostAdminRepliesSendNotificationApiResponse>('/admin/replies/send-notification', body, ADMIN_FALLBACK.sendNotification),
  acknowledgeReport: (reportId: string) =>
    http.post<PostAdminAcknowledgeReportByIdApiResponse>(`/admin/acknowledge-report/${id(reportId)}`, {}, ADMIN_FALLBACK.acknowledgeReport),

  appeals: (q: Page & { status: AppealFilter }) =>
    http.get<GetAdminAppealsApiResponse>('/admin/appeals', ADMIN_FALLBACK.fetchAppeals, { status: q.status, page: q.page, limit: q.limit ?? ADMIN_PAGE_SIZE }),
  decideAppeal: (appealId: string, body: { decision: AppealDecision; reply?: string }) =>
    http.patch<PatchAdminAppealsByIdApiResponse>(`/admin/appeals/${id(appealId)}`, body, ADMIN_FALLBACK.decideAppeal),

  earnings: (q: Page) =>
    http.get<GetEarningAdminEarningsApiResponse>(
      '/earning/admin/earnings',
      ADMIN_FALLBACK.fetchEarnings,
      { page: q.page, limit: q.limit ?? ADMIN_PAGE_SIZE },
    ),
  payouts: (users: string[]) =>
    http.post<PostEarningAdminPayoutsApiResponse>(
      '/earning/admin/payouts',
      { users },
      ADMIN_FALLBACK.payouts,
    ),

  analytics: (range: { startDate?: string; endDate?: string }) =>
    http.get<GetAdminAnalyticsApiResponse>('/admin/analytics', ADMIN_FALLBACK.analytics, range),

  emailStatus: (q: Page & { email: string; type?: string }) =>
    http.get<GetAdminEmailStatusApiResponse>('/admin/email-status', ADMIN_FALLBACK.emailStatus, {
      email: q.email,
      type: q.type,
      page: q.page,
      limit: q.limit ?? ADMIN_PAGE_SIZE,
    }),
  emailStatuses: (q: Page & { type?: string }) =>
    http.get<GetAdminAllEmailStatusesApiResponse>('/admin/all-email-statuses', ADMIN_FALLBACK.emailStatuses, {
      type: q.type,
      page: q.page,
      limit: q.limit ?? ADMIN_PAGE_SIZE,
    }),
  retryFailedEmails: (type: string) =>
    http.post<PostAdminRetryFailedEmailsApiResponse>('/admin/retry-failed-emails', { type }, ADMIN_FALLBACK.retryEmails),
  job: (id: string) =>
    http.get<GetAdminJobsByIdApiResponse>(`/admin/jobs/${encodeURIComponent(id)}`, ADMIN_FALLBACK.job),
  dailyReport: (q: Page & { date?: string }) =>
    http.get<GetDailyMailDailyPostReportApiResponse>('/dailyMail/daily-post-report', ADMIN_FALLBACK.dailyReport, {
      date: q.date,
      page: q.page,
      limit: q.limit ?? ADMIN_PAGE_SIZE,
    }),

  banners: () => http.get<GetBannerNotificationGetNotificationApiResponse>('/bannerNotification/get-Notification', ADMIN_FALLBACK.fetchBanners, { all: true }),
  createBanner: (body: { title: string; message: string; region: string; link?: string; expiresAt?: string; sticky?: boolean; urgent?: boolean }) =>
    http.post<PostBannerNotificationCreateApiResponse>('/bannerNotification/create', body, ADMIN_FALLBACK.createBanner),
  dismissBanner: (bannerId: string) => http.patch(`/bannerNotification/dismiss/${id(bannerId)}`, {}, ADMIN_FALLBACK.dismissBanner),
  deactivateBanner: (bannerId: string) =>
    http.patch<PatchBannerNotificationDeactivateByIdApiResponse>(`/bannerNotification/deactivate/${id(bannerId)}`, {}, ADMIN_FALLBACK.deactivateBanner),
  deleteAllBanners: () => http.delete<DeleteBannerNotificationDeleteAllApiResponse>('/bannerNotification/delete-all', ADMIN_FALLBACK.deleteAllBanners),

  plans: (q: Page & { status?: string; includeDeleted?: boolean }) =>
    http.get<GetAdminSubscriptionsPlansApiResponse>('/admin/subscriptions/plans', ADMIN_FALLBACK.fetchPlans, {
      page: q.page,
      limit: q.limit ?? ADMIN_PAGE_SIZE,
      status: q.status,
      includeDeleted: q.includeDeleted,
    }),
  setPlanStatus: (planId: string, status: string) =>
    http.patch<PatchAdminSubscriptionsPlanStatusApiResponse>('/admin/subscriptions/plan/status', { planId, status }, ADMIN_FALLBACK.togglePlanStatus),
  updateCriteria: (criteria: Partial<SubscriptionCriteria>) =>
    http.patch<PatchAdminSubscriptionsCriteriaApiResponse>('/admin/subscriptions/criteria', criteria, ADMIN_FALLBACK.updateCriteria),
  checkEligibility: (userId: string) => http.get<GetAdminSubscriptionsEligibilityByUserIdApiResponse>(`/admin/subscriptions/eligibility/${id(userId)}`, ADMIN_FALLBACK.checkEligibility),
  toggleEligibility: (userId: string, enable: boolean) =>
    http.post<PostAdminSubscriptionsEligibilityToggleApiResponse>('/admin/subscriptions/eligibility/toggle', { userId, enable }, ADMIN_FALLBACK.toggleEligibility),
  grant: (userId: string, grant: boolean) => http.post<PostAdminSubscriptionsGrantApiResponse>('/admin/subscriptions/grant', { userId, grant }, ADMIN_FALLBACK.grantAccess),
  userOverride: (userId: string, body: { isEligibleForSubscription?: boolean; bypassSubscriptionCriteria?: boolean }) =>
    http.patch<PatchAdminSubscriptionsUserOverrideByUserIdApiResponse>(`/admin/subscriptions/user-override/${id(userId)}`, body, ADMIN_FALLBACK.userOverride),
  milestones: (userId: string, body: Partial<Record<keyof OverrideInfo['milestoneOverride'], number | null>>) =>
    http.patch<PatchAdminSubscriptionsUserMilestoneByUserIdApiResponse>(`/admin/subscriptions/user-milestone/${id(userId)}`, body, ADMIN_FALLBACK.milestones),
  resetMilestones: (userId: string) =>
    http.patch<PatchAdminSubscriptionsUserMilestoneResetByUserIdApiResponse>(`/admin/subscriptions/user-milestone-reset/${id(userId)}`, {}, ADMIN_FALLBACK.resetMilestones),

  feedbacks: (q: Page) =>
    http.get<GetUserFeedbackAllApiResponse>('/user/feedback/all', ADMIN_FALLBACK.feedbacks, { page: q.page, limit: q.limit ?? ADMIN_PAGE_SIZE }),
  feedbackPrompt: (userId: string, message: string) =>
    http.post<PostUserFeedbackManualByUserIdApiResponse>(`/user/feedback/manual/${id(userId)}`, { message }, ADMIN_FALLBACK.feedbackPrompt),

  auditLog: (q: Page & { action?: string; actorId?: string }) =>
    http.get<GetAdminAuditLogApiResponse>('/admin/audit-log', ADMIN_FALLBACK.auditLog, {
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

/**
 * `GET /admin/jobs/{id}`'s `job` as it is read: the server's document gives it as an object
 * without its properties, so each one is optional here (a finished email retry also lists its
 * results).
 */
export type JobAnswer = Partial<AdminJob> & { results?: RetryResult[] };
