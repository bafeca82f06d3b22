/** The subscription calls (seed 001 §7 "Subscriptions and plans") and their fallback texts. */
import type {
  DeleteSubscriptionPlansByIdApiResponse,
  GetSubscriptionAuthorByAuthorIdSubscriptionsApiResponse,
  GetSubscriptionCheckEligibilityApiResponse,
  GetSubscriptionMyPlansApiResponse,
  GetSubscriptionMySubscriptionsApiResponse,
  GetSubscriptionPlansAuthorByAuthorIdApiResponse,
  GetSubscriptionPlansByIdAnalyticsApiResponse,
  PatchSubscriptionPlansByIdApiResponse,
  PatchSubscriptionSubscriptionsByIdCancelApiResponse,
  PatchSubscriptionSubscriptionsByIdRefundApiResponse,
  PostSubscriptionPlansApiResponse,
  PostSubscriptionPlansByIdActivateApiResponse,
  PostSubscriptionRemindersApiResponse,
  PostSubscriptionStatusApiResponse,
  PostSubscriptionSubscribeApiResponse,
  PostSubscriptionUnsubscribeAuthorApiResponse,
} from '@/api/endpoints';
import { errorMessage, http } from '@/lib/http';
import type { Eligibility, SubscriptionCriteria } from '@/types/money';

export const SUBSCRIPTION_FALLBACK = {
  plans: 'Failed to fetch subscription plans',
  subscribed: 'Failed to fetch subscribed plans',
  eligibility: 'Failed to check eligibility',
  status: 'Failed to fetch status',
  subscribe: 'Failed to subscribe',
  cancel: 'Failed to cancel subscription',
  refund: 'Failed to refund subscription',
  unsubscribe: 'Failed to unsubscribe',
  savePlan: 'Failed to save plan',
  activatePlan: 'Failed to activate plan',
  deletePlan: 'Failed to delete plan',
  analytics: 'Failed to fetch plan analytics',
  subscribers: 'Failed to fetch subscribers',
  reminders: 'Failed to send renewal reminders',
} as const;

/** Seed 001 §4 "Subscription" status messages. */
export const SUBSCRIPTION_MESSAGES = {
  subscribed: 'Subscribed successfully',
  cancelled: 'Subscription cancelled successfully',
  refunded: 'Subscription refunded successfully',
  reminders: 'Renewal reminders sent successfully',
  unsubscribed: 'Unsubscribed successfully',
} as const;

/** Seed 001 §5: the client's checks before subscribing. */
export const MISSING_TOKEN = 'Missing authentication token';
export const MISSING_PLAN_ID = 'Missing plan ID';
export const CONFIG_NOT_FOUND = 'Subscription configuration not found';
export const CONFIG_NOT_FOUND_MESSAGE = 'Subscription configuration not found, using default criteria';
/** The subscription area's default criteria (seed 001 §9: 180 days here). */
export const SUBSCRIPTION_DEFAULT_CRITERIA: SubscriptionCriteria = { minFollowers: 10000, minPosts: 30, minEngagementRate: 0.05, minAccountAgeDays: 180 };

/**
 * Seed 001 §8: a 'Subscription configuration not found' answer to the eligibility check is a
 * not-eligible result with the area's defaults; null for any other failure.
 */
export function eligibilityWhenUnconfigured(failure: unknown): Eligibility | null {
  if (errorMessage(failure, '') !== CONFIG_NOT_FOUND) return null;
  return { isEligible: false, followerCount: 0, postCount: 0, engagementRate: 0, accountAgeDays: 0, criteria: SUBSCRIPTION_DEFAULT_CRITERIA, message: CONFIG_NOT_FOUND_MESSAGE };
}

export interface PlanInput {
  name: string;
  description: string;
  price: number;
  currency: string;
  interval: string;
  benefits: string[];
}

/** `POST /subscription/status` as kept: the status is null when there is none. */
export type StatusAnswer = Omit<PostSubscriptionStatusApiResponse, 'status'> & { status: string | null };

export const subscriptionsApi = {
  authorPlans: (authorId: string) =>
    http.get<GetSubscriptionPlansAuthorByAuthorIdApiResponse>(`/subscription/plans/author/${encodeURIComponent(authorId)}`, SUBSCRIPTION_FALLBACK.plans),
  myPlans: () => http.get<GetSubscriptionMyPlansApiResponse>('/subscription/my-plans', SUBSCRIPTION_FALLBACK.plans, { includeDeleted: true }),
  mySubscriptions: (includeEnded: boolean) =>
    http.get<GetSubscriptionMySubscriptionsApiResponse>('/subscription/my-subscriptions', SUBSCRIPTION_FALLBACK.subscribed, includeEnded ? { includeEnded: true } : undefined),
  status: (userId: string, authorId: string) => http.post<PostSubscriptionStatusApiResponse>('/subscription/status', { userId, authorId }, SUBSCRIPTION_FALLBACK.status),
  subscribe: (planId: string) =>
    http.post<PostSubscriptionSubscribeApiResponse>('/subscription/subscribe', { planId }, SUBSCRIPTION_FALLBACK.subscribe),
  cancel: (id: string) => http.patch<PatchSubscriptionSubscriptionsByIdCancelApiResponse>(`/subscription/subscriptions/${encodeURIComponent(id)}/cancel`, {}, SUBSCRIPTION_FALLBACK.cancel),
  refund: (id: string, reason: string, bankDetails: unknown) =>
    http.patch<PatchSubscriptionSubscriptionsByIdRefundApiResponse>(`/subscription/subscriptions/${encodeURIComponent(id)}/refund`, { reason, bankDetails }, SUBSCRIPTION_FALLBACK.refund),
  unsubscribeAuthor: (authorId: string, userId: string) =>
    http.post<PostSubscriptionUnsubscribeAuthorApiResponse>('/subscription/unsubscribe/author', { authorId, userId }, SUBSCRIPTION_FALLBACK.unsubscribe),
  checkEligibility: () => http.get<GetSubscriptionCheckEligibilityApiResponse>('/subscription/check-eligibility', SUBSCRIPTION_FALLBACK.eligibility),
  createPlan: (input: PlanInput) => http.post<PostSubscriptionPlansApiResponse>('/subscription/plans', input, SUBSCRIPTION_FALLBACK.savePlan),
  updatePlan: (planId: string, input: Partial<PlanInput> & { status?: string }) =>
    http.patch<PatchSubscriptionPlansByIdApiResponse>(`/subscription/plans/${encodeURIComponent(planId)}`, input, SUBSCRIPTION_FALLBACK.savePlan),
  activatePlan: (planId: string) => http.post<PostSubscriptionPlansByIdActivateApiResponse>(`/subscription/plans/${encodeURIComponent(planId)}/activate`, {}, SUBSCRIPTION_FALLBACK.activatePlan),
  deletePlan: (planId: string) => http.delete<DeleteSubscriptionPlansByIdApiResponse>(`/subscription/plans/${encodeURIComponent(planId)}`, SUBSCRIPTION_FALLBACK.deletePlan),
  analytics: (planId: string) => http.get<GetSubscriptionPlansByIdAnalyticsApiResponse>(`/subscription/plans/${encodeURIComponent(planId)}/analytics`, SUBSCRIPTION_FALLBACK.analytics),
  reminders: () => http.post<PostSubscriptionRemindersApiResponse>('/subscription/reminders', {}, SUBSCRIPTION_FALLBACK.reminders),
  subscribers: (authorId: string) =>
    http.get<GetSubscriptionAuthorByAuthorIdSubscriptionsApiResponse>(`/subscription/author/${encodeURIComponent(authorId)}/subscriptions`, SUBSCRIPTION_FALLBACK.subscribers),
};
