/** Wire shapes shared by several features (seed 000 §3, seed 001 §3). */

export type NotificationType = 'like' | 'bookmark' | 'comment' | 'reply' | 'admin' | 'admin_reply' | 'appeal';

export interface UserNotification {
  _id: string;
  type: NotificationType | string;
  content?: string | null;
  read: boolean;
  createdAt?: string | null;
  navigateTo?: string | null;
  sender?: { name?: string | null; avatar?: string | null } | null;
  post?: { title?: string | null } | null;
  user?: string | null;
}

export interface BannerNotification {
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
}

export interface Post {
  _id: string;
  slug: string;
  title: string;
  blocks?: unknown[];
  thumbnail?: string | null;
  createdAt?: string;
  blocked?: boolean;
  author?: { _id?: string; name?: string; avatar?: string | null } | string | null;
  tags?: string[];
  category?: unknown;
}

export interface UserSummary {
  _id: string;
  name: string;
  email?: string;
  avatar?: string | null;
  role?: string;
  totalPosts?: number;
  region?: string | null;
  isAccountVerified?: boolean;
  blocked?: boolean;
}

export interface Category {
  _id: string;
  name: string;
  slug: string;
  description?: string;
  createdBy?: string | null;
}

export interface UserLocation {
  userId: string;
  coordinates: { lat: number; lon: number };
  city: string;
  country: string;
  state: string;
  pincode: string;
  timestamp?: string;
  countryCode?: string;
}

export interface PostCounts {
  allPostsCount: number;
  myPostsCount: number;
  followingPostsCount: number;
}

export interface GuestVisit {
  guestId: string;
  visitCount: number;
  lastVisit: string;
}
