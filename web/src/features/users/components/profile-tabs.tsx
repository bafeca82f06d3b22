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

/** The owner's bank details until their screen exists: said plainly, no form that pretends. */
function BankDetailsNotYet() {
  return (
    <section className="notice--info" aria-labelledby="bank-details-title" data-testid="bank-details-unavailable">
      <h2 id="bank-details-title" className="section-title">
        Bank details are not available yet
      </h2>
      <p>Adding the bank account your earnings are paid to is not available in the web app yet, so nothing is asked for or stored here.</p>
    </section>
  );
}

/**
 * Tabs other features add to the studio, after the built-in ones. The owner's bank details
 * (`?tab=bank-details`, seed 000 §2) say they are not available yet until their screen replaces
 * this entry.
 */
export const PROFILE_EXTRA_TABS: ProfileTab[] = [
  { id: 'bank-details', label: 'Bank details', visible: ({ own }) => own, render: () => <BankDetailsNotYet /> },
];
