/** Wire shapes of the money API (docs/decisions.md "Money"); amounts are minor units. */
import type { Schemas } from '@/api';

export type PaymentMode = 'test' | 'live';

export interface Plan {
  _id: string;
  authorId: string;
  authorName?: string | null;
  name: string;
  description?: string;
  price: number;
  currency: string;
  interval: 'month' | 'year' | string;
  benefits?: string[];
  status: 'active' | 'inactive' | string;
  isDeleted?: boolean;
  deletedAt?: string | null;
  activeSubscribers?: number;
  createdAt?: string;
  updatedAt?: string;
  mode?: PaymentMode | string;
}

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
  status: SubscriptionStatus | string;
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
  mode?: PaymentMode | string;
}

export type SubscriptionCriteria = Schemas['Criteria'];

export type MilestoneOverride = Schemas['MilestoneOverride'];

export type OverrideInfo = Schemas['OverrideInfo'];

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

export interface PlanAnalytics {
  planId: string;
  planName: string;
  currency: string;
  activeSubscribers: number;
  totalSubscribers: number;
  revenue: { gross: number; fees: number; refunds: number; net: number };
  refunds: number;
  cancellations: number;
  renewals: number;
  monthly: { month: string; newSubscribers: number; renewals: number; cancellations: number; refunds: number; gross: number; net: number }[];
}

export interface BankDetails {
  _id: string;
  userId: string;
  paymentId: string;
  accountHolderName: string;
  accountLast4: string;
  maskedAccountNumber: string;
  bankCode: string;
  bankName: string;
  country?: string;
  contactData: { name: string; email: string; contact: string };
  timestamp?: string;
  createdAt?: string;
  mode?: PaymentMode | string;
}

export interface Balance {
  currency: string;
  gross: number;
  fees: number;
  refunds: number;
  paidOut: number;
  availableBalance: number;
}

export interface LedgerEntry {
  _id: string;
  kind: 'charge' | 'refund' | 'refund_reversal' | 'payout' | 'payout_reversal' | string;
  currency: string;
  gross: number;
  fee: number;
  amount: number;
  planId?: string | null;
  subscriptionId?: string | null;
  createdAt: string;
}
