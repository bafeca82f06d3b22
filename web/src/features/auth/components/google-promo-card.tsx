import { useEffect, useState } from 'react';
import { useAppSelector } from '@/app/hooks';
import { sessionStore } from '@/lib/storage';
import { GoogleSignInButton, useGoogleClientId } from './google-sign-in-button';

export const GOOGLE_PROMO_DELAY_MS = 30_000;
const CLOSED_KEY = 'googlePromoClosed';

/** Invites guests to sign in with Google after 30 s on the site (only when Google sign-in is configured). */
export function GooglePromoCard() {
  const { isAuthenticated, authInitialized } = useAppSelector((state) => state.auth);
  const clientId = useGoogleClientId();
  const [due, setDue] = useState(false);
  const [closed, setClosed] = useState(() => sessionStore.get(CLOSED_KEY) === '1');

  useEffect(() => {
    if (!authInitialized || isAuthenticated) return;
    const timer = setTimeout(() => setDue(true), GOOGLE_PROMO_DELAY_MS);
    return () => clearTimeout(timer);
  }, [authInitialized, isAuthenticated]);

  if (!due || closed || isAuthenticated || !clientId) return null;
  const close = () => {
    sessionStore.set(CLOSED_KEY, '1');
    setClosed(true);
  };
  return (
    <aside className="promo-card" aria-labelledby="google-promo-title">
      <button type="button" className="icon-button promo-card__close" aria-label="Close" onClick={close}>
        ×
      </button>
      <h2 id="google-promo-title">Sign in with Google</h2>
      <p>Follow authors, save bookmarks and get notified about new posts — one click, no new password.</p>
      <GoogleSignInButton onSuccess={close} />
    </aside>
  );
}
