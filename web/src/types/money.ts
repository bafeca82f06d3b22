/** Wire shapes of the money API (docs/decisions.md "Money"); amounts are minor units. */
import type { Answer, Schemas } from '@/api';

export type PaymentMode = 'test' | 'live';

/** A plan as the API gives it; the author's own plans carry `activeSubscribers` (`OwnPlanView`). */
export type Plan = Schemas['PlanView'] & Partial<Pick<Schemas['OwnPlanView'], 'activeSubscribers'>>;

export type SubscriptionStatus = 'incomplete' | 'active' | 'past_due' | 'cancelled' | 'refunded' | 'expired' | 'failed';

export interface Subscription {
  _id: string;
  subscriptionId: string;
  planId: string;
  planName: string;
  authorId: string;
  authorName?: string | null;
  subscriberId?: string;
  subscriberName?: string | null;
  status: SubscriptionStatus | (string & {});
  hasAccess?: boolean;
  price?: number;
  currency?: string;
  interval?: string;
  currentPeriodStart?: string | null;
  currentPeriodEnd?: string | null;
  graceEndsAt?: string | null;
  cancelledAt?: string | null;
  refundedAt?: string | null;
  endedAt?: string | null;
  createdAt?: string;
  mode?: PaymentMode | (string & {});
}

export type SubscriptionCriteria = Schemas['Criteria'];

export type MilestoneOverride = Schemas['MilestoneOverride'];

export type OverrideInfo = Schemas['OverrideInfo'];

/**
 * `GET /subscription/check-eligibility` (`EligibilityView`) or, when the server has no
 * subscription configuration, the not-eligible answer the client makes up with the defaults
 * (seed 001 §8): kept by hand, with the fields that answer cannot know optional.
 */
export interface Eligibility {
  userId?: string;
  isEligible: boolean;
  followerCount: number;
  postCount: number;
  engagementRate: number;
  accountAgeDays: number;
  criteria?: SubscriptionCriteria;
  message?: string;
  overrideInfo?: OverrideInfo;
}

/** `GET /subscription/plans/{id}/analytics`. */
export type PlanAnalytics = Answer<'/api/subscription/plans/{id}/analytics', 'get'>;

/** Bank details as the API gives them (the last four digits only). */
export type BankDetails = Schemas['BankDetailsView'];
