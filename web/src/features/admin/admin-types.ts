/** Wire shapes of the administrator API (docs/decisions.md "Administration", "Money"). */
import type { Answer, Schemas } from '@/api';
import type { Eligibility, MilestoneOverride, OverrideInfo, Plan, SubscriptionCriteria } from '@/types/money';

export type { MilestoneOverride, OverrideInfo, Plan, SubscriptionCriteria };
export type UserEligibility = Eligibility;

export type Status = 'idle' | 'loading' | 'succeeded' | 'failed';

export type AdminUser = Schemas['AdminUserView'];

export type AdminPost = Schemas['AdminPostView'];

export type ContactMessage = Schemas['ContactView'];

export type Person = Schemas['ReportPerson'];

export type Report = Schemas['AdminReportView'];

export interface UserEarning {
  userId: string;
  name: string;
  currency: string;
  gross: number;
  fees: number;
  refunds: number;
  paidOut: number;
  availableBalance: number;
  hasBankDetails: boolean;
}

export type PayoutResult = Schemas['PayoutResult'];

export type EmailStatus = Schemas['EmailLogView'];

export type EmailReport = Schemas['MailLogView'];

export type SiteAnalytics = Schemas['SiteAnalytics'];

export type Overview = Answer<'/api/admin/overview', 'get'>;

export type BannerNotice = Schemas['BannerView'];

export type AuditEntry = Schemas['AuditView'];

export interface Feedback {
  _id: string;
  rating: number;
  message: string;
  user?: { _id: string; name: string; email?: string | null } | null;
  userId?: string | null;
  createdAt?: string;
}

