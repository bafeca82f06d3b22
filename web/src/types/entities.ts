/** Wire shapes shared by several features (seed 000 §3, seed 001 §3). */
import type { Schemas } from '@/api';

export type NotificationType = 'like' | 'bookmark' | 'comment' | 'reply' | 'admin' | 'admin_reply' | 'appeal' | 'subscription' | 'new_post';

export type UserNotification = Schemas['NotificationView'];

export type BannerNotification = Schemas['BannerView'];

/** One Editor.js block as the server stores it (seed 000 §3 "blocks"). */
export type Block = Schemas['Block'];

export type PostAuthor = Schemas['AuthorView'];

export type CategoryRef = Schemas['CategoryRef'];

export type PostType = 'Article' | 'Blog';
export type Visibility = 'Public' | 'Private' | 'Unlisted';
export type PostStatus = 'draft' | 'published' | 'scheduled';

/** A resized copy of a stored picture. */
export interface ImageVariant {
  src: string;
  width: number;
  height: number;
  /** Content type: image/webp, image/png, image/jpeg. */
  type: string;
}

/** A stored picture's size and resized copies (narrowest first). */
export interface ImageMeta {
  src: string;
  width: number;
  height: number;
  type: string;
  variants?: ImageVariant[];
}

export interface Post {
  _id: string;
  slug: string;
  title: string;
  blocks?: Block[];
  thumbnail?: string | null;
  /** The thumbnail's size and variants when it is a stored picture. */
  thumbnailImage?: ImageMeta | null;
  excerpt?: string;
  createdAt?: string;
  updatedAt?: string;
  blocked?: boolean;
  author?: PostAuthor | null;
  category?: CategoryRef | null;
  tags?: string[];
  postType?: PostType;
  visibility?: Visibility;
  isFeatured?: boolean;
  isPinned?: boolean;
  isPublished?: boolean;
  language?: string;
  status?: PostStatus;
  publishAt?: string | null;
  publishedAt?: string | null;
  likesCount?: number;
  bookmarksCount?: number;
  views?: number;
  shareCount?: number;
  commentsCount?: number;
  /** Whole minutes (server estimate). */
  readingTime?: number;
  /** `everyone` or `subscribers`. */
  audience?: 'everyone' | 'subscribers' | string;
  /** A subscribers-only post the viewer may not read: `blocks` is empty, the excerpt is the teaser. */
  locked?: boolean;
}

export interface UserSummary {
  _id: string;
  name: string;
  email?: string;
  avatar?: string | null;
  bio?: string | null;
  website?: string | null;
  consent?: boolean | null;
  createdAt?: string;
  role?: string;
  totalPosts?: number;
  region?: string | null;
  isAccountVerified?: boolean;
  blocked?: boolean;
}

/** A profile as `get-single-user` answers it: public fields, counts, presence, the viewer's relation. */
export interface UserProfile extends UserSummary {
  bio?: string | null;
  website?: string | null;
  location?: string | null;
  createdAt?: string;
  followersCount?: number;
  followingCount?: number;
  isOnline?: boolean;
  /** Whether the viewer follows them (signed-in viewers looking at someone else). */
  isFollowing?: boolean;
  /** Whether the viewer blocked them. */
  blockedByYou?: boolean;
}

/** One entry of a user's activity. */
export type ActivityEntry = Schemas['ActivityView'];

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
  /** Who it is (lists for maps carry it). */
  user?: { _id: string; name: string; avatar?: string | null } | null;
  isOnline?: boolean;
}

export interface PostCounts {
  allPostsCount: number;
  myPostsCount: number;
  followingPostsCount: number;
}

export type GuestVisit = Schemas['GuestView'];
