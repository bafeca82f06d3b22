/** Wire shapes shared by several features (seed 000 §3, seed 001 §3). */
import type { Schemas } from '@/api';

export type NotificationType = 'like' | 'bookmark' | 'comment' | 'reply' | 'admin' | 'admin_reply' | 'appeal' | 'subscription' | 'new_post' | 'tip';

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
/** A resized copy of a stored picture. */
export type ImageVariant = Schemas['ImageVariant'];

/** A stored picture's size and resized copies (narrowest first). */
/** A stored picture's size and resized copies (narrowest first). */
export type ImageMeta = Schemas['ImageMeta'];

/** A post as the API gives it (`PostView`). */
export type Post = Schemas['PostView'];

export interface UserSummary {
  _id: string;
  name: string;
  email?: string | null;
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
export type UserProfile = Schemas['Profile'];

/** One entry of a user's activity. */
export type ActivityEntry = Schemas['ActivityView'];

export type Category = Schemas['CategoryView'];

export interface UserLocation {
  userId: string;
  coordinates: { lat: number; lon: number };
  city: string;
  country: string;
  state: string;
  pincode: string;
  timestamp?: string;
  countryCode?: string | null;
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
