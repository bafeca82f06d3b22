/** The subscription calls (seed 001 §7 "Subscriptions and plans") and their fallback texts. */
import { http } from '@/lib/http';
import type { Eligibility, Plan, PlanAnalytics, Subscription, SubscriptionCriteria } from '@/types/money';

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

export interface PlanInput {
  name: string;
  description: string;
  price: number;
  currency: string;
  interval: string;
  benefits: string[];
}

export interface StatusAnswer {
  isSubscribed: boolean;
  status: string | null;
  subscriptionId?: string | null;
  mode?: string;
}

type WithMode = { message?: string; mode?: string };

export const subscriptionsApi = {
  authorPlans: (authorId: string) =>
    http.get<{ plans: Plan[]; count: number } & WithMode>(`/subscription/plans/author/${encodeURIComponent(authorId)}`, SUBSCRIPTION_FALLBACK.plans),
  myPlans: () => http.get<{ plans: Plan[]; count: number } & WithMode>('/subscription/my-plans', SUBSCRIPTION_FALLBACK.plans, { includeDeleted: true }),
  mySubscriptions: (includeEnded: boolean) =>
    http.get<{ plans: Subscription[]; count: number } & WithMode>('/subscription/my-subscriptions', SUBSCRIPTION_FALLBACK.subscribed, includeEnded ? { includeEnded: true } : undefined),
  status: (userId: string, authorId: string) => http.post<StatusAnswer>('/subscription/status', { userId, authorId }, SUBSCRIPTION_FALLBACK.status),
  subscribe: (planId: string) =>
    http.post<{ subscription: Subscription; payment?: { status?: string; clientSecret?: string | null } } & WithMode>('/subscription/subscribe', { planId }, SUBSCRIPTION_FALLBACK.subscribe),
  cancel: (id: string) => http.patch<{ subscription: Subscription } & WithMode>(`/subscription/subscriptions/${encodeURIComponent(id)}/cancel`, {}, SUBSCRIPTION_FALLBACK.cancel),
  refund: (id: string, reason: string, bankDetails: unknown) =>
    http.patch<{ subscription: Subscription } & WithMode>(`/subscription/subscriptions/${encodeURIComponent(id)}/refund`, { reason, bankDetails }, SUBSCRIPTION_FALLBACK.refund),
  unsubscribeAuthor: (authorId: string, userId: string) =>
    http.post<{ cancelled?: number; subscriptions?: Subscription[] } & WithMode>('/subscription/unsubscribe/author', { authorId, userId }, SUBSCRIPTION_FALLBACK.unsubscribe),
  checkEligibility: () => http.get<Eligibility & WithMode>('/subscription/check-eligibility', SUBSCRIPTION_FALLBACK.eligibility),
  createPlan: (input: PlanInput) => http.post<{ plan: Plan } & WithMode>('/subscription/plans', input, SUBSCRIPTION_FALLBACK.savePlan),
  updatePlan: (planId: string, input: Partial<PlanInput> & { status?: string }) =>
    http.patch<{ plan: Plan } & WithMode>(`/subscription/plans/${encodeURIComponent(planId)}`, input, SUBSCRIPTION_FALLBACK.savePlan),
  activatePlan: (planId: string) => http.post<{ plan: Plan } & WithMode>(`/subscription/plans/${encodeURIComponent(planId)}/activate`, {}, SUBSCRIPTION_FALLBACK.activatePlan),
  deletePlan: (planId: string) => http.delete<{ plan?: Plan } & WithMode>(`/subscription/plans/${encodeURIComponent(planId)}`, SUBSCRIPTION_FALLBACK.deletePlan),
  analytics: (planId: string) => http.get<PlanAnalytics & WithMode>(`/subscription/plans/${encodeURIComponent(planId)}/analytics`, SUBSCRIPTION_FALLBACK.analytics),
  reminders: () => http.post<{ message?: string; sent?: number; alreadySent?: number; failed?: number }>('/subscription/reminders', {}, SUBSCRIPTION_FALLBACK.reminders),
  subscribers: (authorId: string) =>
    http.get<{ subscriptions: Subscription[] } & WithMode>(`/subscription/author/${encodeURIComponent(authorId)}/subscriptions`, SUBSCRIPTION_FALLBACK.subscribers),
};
