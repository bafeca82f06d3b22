import { lazy, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { UserProfile } from '@/types/entities';
import { loadBankDetailsPanel } from '@/features/payments/lazy';

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

/** The owner's bank details load when their tab opens (the profile page wraps tabs in Suspense). */
const BankDetailsPanel = lazy(() => loadBankDetailsPanel().then((m) => ({ default: m.BankDetailsPanel })));

export interface ProfileTab {
  /** The `?tab=` value. */
  id: string;
  label: string;
  visible: (ctx: ProfileTabContext) => boolean;
  render: (ctx: ProfileTabContext) => ReactNode;
}

/**
 * Tabs other features add to the studio, after the built-in ones: the owner's bank details
 * (`?tab=bank-details`, seed 000 §2), the money studio's panel, with the way to plans and
 * earnings.
 */
export const PROFILE_EXTRA_TABS: ProfileTab[] = [
  {
    id: 'bank-details',
    label: 'Bank details',
    visible: ({ own }) => own,
    render: ({ user }) => (
      <>
        <BankDetailsPanel userId={user._id} />
        <p className="small">
          <Link to={`/plans/${user._id}?tab=earnings`}>Plans, subscribers and earnings</Link>
        </p>
      </>
    ),
  },
];
