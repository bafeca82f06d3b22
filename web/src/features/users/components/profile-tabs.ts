import type { ReactNode } from 'react';
import type { UserProfile } from '@/types/entities';

/** What a profile tab knows about the page it is on. */
export interface ProfileTabContext {
  user: UserProfile;
  /** The signed-in user is looking at their own profile (their studio). */
  own: boolean;
  isAdmin: boolean;
  signedIn: boolean;
  /** `&post=`: the post whose analytics are open. */
  postId: string | null;
}

export interface ProfileTab {
  /** The `?tab=` value. */
  id: string;
  label: string;
  visible: (ctx: ProfileTabContext) => boolean;
  render: (ctx: ProfileTabContext) => ReactNode;
}

/**
 * Tabs other features add to the studio, after the built-in ones. The owner's bank details
 * (`?tab=bank-details`, seed 000 §2) belong here once their screen exists; until then a link to
 * that tab opens the profile's first tab.
 */
export const PROFILE_EXTRA_TABS: ProfileTab[] = [];
