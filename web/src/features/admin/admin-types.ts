/** Wire shapes of the administrator API (docs/decisions.md "Administration", "Money"). */
import type { Eligibility, MilestoneOverride, OverrideInfo, Plan, SubscriptionCriteria } from '@/types/money';

export type { MilestoneOverride, OverrideInfo, Plan, SubscriptionCriteria };
export type UserEligibility = Eligibility;

export type Status = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface AdminUser {
  _id: string;
  name: string;
  email: string;
  avatar?: string | null;
  role: 'user' | 'admin' | string;
  blocked: boolean;
  isAccountVerified?: boolean;
  region?: string | null;
  totalPosts?: number;
  isEligibleForSubscription?: boolean;
  bypassSubscriptionCriteria?: boolean;
  milestoneOverride?: MilestoneOverride | null;
  createdAt?: string;
}

export interface AdminPost {
  _id: string;
  title: string;
  slug: string;
  status?: string;
  visibility?: string;
  blocked: boolean;
  author?: { _id: string; name: string } | null;
  authorName?: string;
  views?: number;
  likesCount?: number;
  commentsCount?: number;
  createdAt?: string;
}

export interface ContactMessage {
  _id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  isHandled: boolean;
  userId?: string | null;
  handledAt?: string | null;
  reply?: { subject: string; message: string; repliedAt?: string } | null;
  createdAt: string;
}

export interface Person {
  _id: string;
  name: string;
  email?: string | null;
}

export interface Report {
  _id: string;
  post?: { _id: string; title: string; slug?: string | null } | null;
  postId: string;
  postTitle: string;
  postSlug?: string | null;
  reporter?: Person | null;
  author?: Person | null;
  reason: string;
  details?: string | null;
  isReviewed: boolean;
  reviewedAt?: string | null;
  forwardedToAuthor: boolean;
  isAcknowledged: boolean;
  acknowledgedAt?: string | null;
  noticesSent?: number;
  createdAt: string;
}

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

export interface PayoutResult {
  userId: string;
  status: 'paid' | 'skipped' | 'failed' | string;
  currency?: string;
  amount?: number;
  payoutId?: string;
  reason?: string;
  error?: string;
}

export interface EmailStatus {
  _id: string;
  email: string;
  type: string;
  subject?: string;
  success: boolean;
  error?: string | null;
  attempts?: number;
  stopEmailAttempts: boolean;
  retries?: number;
  lastAttemptAt?: string | null;
  sentAt?: string | null;
  createdAt?: string;
}

export interface EmailReport {
  _id: string;
  date: string;
  userId?: string;
  email: string;
  postCount: number;
  status: string;
  success: boolean;
  error?: string | null;
  createdAt?: string;
  sentAt?: string | null;
}

export interface Traffic {
  totalVisits: number;
  totalTimeSpent: number;
  uniqueUsersCount: number;
  uniquePostsCount: number;
  uniqueVisitorsCount?: number;
  postViews?: number;
  guestVisits?: number;
}

export interface SiteAnalytics {
  traffic: Traffic;
  topPosts: { _id: string; title: string; slug?: string; views: number; timeSpent: number; author?: { _id: string; name: string } | null }[];
  topUsers: { _id: string; name: string; avatar?: string | null; views: number; timeSpent: number; posts?: number }[];
  series: { date: string; visits: number; views: number; guestVisits: number; timeSpent: number; uniqueUsers: number }[];
  range?: { startDate?: string; endDate?: string; start?: string; end?: string };
}

export interface Overview {
  online: { count: number; users: number; guests: number };
  today: { since: string; signups: number; posts: number; reports: number; contactMessages: number };
  unreadContactMessages: number;
  openReports: number;
  pendingAppeals: number;
  totals: { users: number; posts: number };
}

export interface BannerNotice {
  _id: string;
  title: string;
  message: string;
  link?: string | null;
  region?: string | null;
  isActive?: boolean;
  expiresAt?: string | null;
  sticky?: boolean;
  dismissedBy?: string[];
  timestamp?: string | null;
  createdAt?: string | null;
}

export interface AuditEntry {
  _id: string;
  actor: { _id: string; name: string; email?: string | null };
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  targetLabel?: string | null;
  details?: unknown;
  createdAt: string;
}

export interface Feedback {
  _id: string;
  rating: number;
  message: string;
  user?: { _id: string; name: string; email?: string | null } | null;
  userId?: string | null;
  createdAt?: string;
}

export interface NoticeItem {
  _id: string;
  type: string;
  content?: string | null;
  read: boolean;
  createdAt?: string | null;
}
