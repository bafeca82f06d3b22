/** Wire shapes of the administrator API (docs/decisions.md "Administration", "Money"). */
import type { Answer, Schemas } from '@/api';
import type { MilestoneOverride, OverrideInfo, SubscriptionCriteria } from '@/types/money';

export type { MilestoneOverride, OverrideInfo, SubscriptionCriteria };

/** `GET /admin/subscriptions/eligibility/{userId}` and `GET /subscription/check-eligibility`. */
export type UserEligibility = Schemas['EligibilityView'];

/** A plan of any author as the administrators' plan list gives it. */
export type Plan = Schemas['PlanView'];

export type Status = 'idle' | 'loading' | 'succeeded' | 'failed';

export type AdminUser = Schemas['AdminUserView'];

export type AdminPost = Schemas['AdminPostView'];

export type ContactMessage = Schemas['ContactView'];

export type Person = Schemas['ReportPerson'];

export type Report = Schemas['AdminReportView'];

/** An author's earnings in one currency (`GET /earning/admin/earnings`). */
export type UserEarning = Schemas['AuthorEarnings'];

export type PayoutResult = Schemas['PayoutResult'];

export type EmailStatus = Schemas['EmailLogView'];

/** One message of an email retry: its log as it is now, or only its outcome when the log is gone. */
export type RetryResult = Schemas['RetryResult'];

export type EmailReport = Schemas['MailLogView'];

export type SiteAnalytics = Schemas['SiteAnalytics'];

export type Overview = Answer<'/api/admin/overview', 'get'>;

export type BannerNotice = Schemas['BannerView'];

export type AuditEntry = Schemas['AuditView'];

/** A feedback entry with its author (`GET /user/feedback/all`). */
export type Feedback = Schemas['FeedbackEntry'];

/** A user's latest location with who they are (`GET /user/locations`). */
export type PlacedLocation = Schemas['PlacedUser'];

/** Which appeals the Appeals section lists (`GET /admin/appeals?status=`). */
export type AppealFilter = 'pending' | 'decided' | 'all';

export type AppealStatus = 'pending' | 'accepted' | 'rejected';

/** What an administrator does with an appeal (`PATCH /admin/appeals/{id}`). */
export type AppealDecision = 'accept' | 'reject';

/**
 * An author's appeal against the block of their post, as administrators see it: the appealed
 * revision (pinned evidence), whether the post changed since, and the decision with its reply.
 */
export type AdminAppeal = Schemas['AdminAppealView'];
