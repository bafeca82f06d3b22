import { lazy, Suspense, useEffect, useState } from 'react';
import { useAppSelector } from '@/app/hooks';
import { sessionStore } from '@/lib/storage';

export const GOOGLE_PROMO_DELAY_MS = 30_000;
const CLOSED_KEY = 'googlePromoClosed';

/** The card itself, with Google's button: its code loads when the card is due (not in a first load). */
const GooglePromoBody = lazy(() => import('./google-promo-body'));

/** Invites guests to sign in with Google after 30 s on the site (only when Google sign-in is configured). */
export function GooglePromoCard() {
  const { isAuthenticated, authInitialized } = useAppSelector((state) => state.auth);
  const [due, setDue] = useState(false);
  const [closed, setClosed] = useState(() => sessionStore.get(CLOSED_KEY) === '1');

  useEffect(() => {
    if (!authInitialized || isAuthenticated) return;
    const timer = setTimeout(() => setDue(true), GOOGLE_PROMO_DELAY_MS);
    return () => clearTimeout(timer);
  }, [authInitialized, isAuthenticated]);

  if (!due || closed || isAuthenticated) return null;
  const close = () => {
    sessionStore.set(CLOSED_KEY, '1');
    setClosed(true);
  };
  return (
    <Suspense fallback={null}>
      <GooglePromoBody onClose={close} />
    </Suspense>
  );
}
