import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { scrollToTop } from '@/lib/browser';
import { whenIdle } from '@/lib/idle';
import { accountVerificationChanged, checkAuth, useSessionCheckRetry } from '@/features/auth';
import { useBannerSync } from '@/features/banner';
import { saveConsent } from '@/features/consent';
import { checkFeedbackPrompt } from '@/features/feedback';
import { trackGuestVisit } from '@/features/guest';
import { trackIpLocation, useGeolocation, useIpLocation } from '@/features/location';
import { fetchUnreadCount } from '@/features/notifications';
import { initUserSocket, socketConnectRequested, socketUserLeft, useConnectivityToasts } from '@/features/socket';
import { useThemeEffects } from '@/features/theme';
import { fetchCurrentUser } from '@/features/users';
import { useAppDispatch, useAppSelector } from './hooks';

/** Everything the app does once per session or per sign-in, wired in one place. */
export function useAppLifecycle(): void {
  const dispatch = useAppDispatch();
  const { authInitialized, isAuthenticated, user, role, token } = useAppSelector((state) => state.auth);
  const consent = useAppSelector((state) => state.consent.userCookieConsent);
  const consentSentFor = useRef<string | null>(null);
  const { pathname } = useLocation();

  useThemeEffects();
  useConnectivityToasts();
  useBannerSync();
  useGeolocation();
  useIpLocation();
  useSessionCheckRetry();

  useEffect(() => {
    void dispatch(checkAuth());
  }, [dispatch]);

  useEffect(() => {
    scrollToTop();
  }, [pathname]);

  // One socket for everyone (guests are counted online); reopened when the token changes, and
  // asked to reconnect when the browser comes back online. Opened once the page has painted and
  // the main thread is idle: the reader's first screen never waits for it.
  useEffect(() => {
    if (!authInitialized) return;
    const connect = () => dispatch(socketConnectRequested({ token: isAuthenticated ? token : null }));
    const cancel = whenIdle(connect);
    window.addEventListener('online', connect);
    return () => {
      cancel();
      window.removeEventListener('online', connect);
    };
  }, [dispatch, authInitialized, isAuthenticated, token]);

  useEffect(() => {
    if (!authInitialized) return;
    if (isAuthenticated && user) {
      void dispatch(initUserSocket({ userId: user._id, role }));
      // The profile also says whether the account is verified (perhaps in another tab since).
      void dispatch(fetchCurrentUser()).then((result) => {
        if (fetchCurrentUser.fulfilled.match(result) && typeof result.payload.isAccountVerified === 'boolean') {
          dispatch(accountVerificationChanged(result.payload.isAccountVerified));
        }
      });
      void dispatch(fetchUnreadCount());
      // Not needed for the first screen: after it has painted, when the main thread is idle.
      return whenIdle(() => {
        void dispatch(checkFeedbackPrompt());
        // Places the user by their address once per sign-in (a device position, when given, wins).
        void dispatch(trackIpLocation());
      });
    }
    // The previous user's data went with `session/userChanged` (app/session-middleware.ts).
    dispatch(socketUserLeft());
    return whenIdle(() => void dispatch(trackGuestVisit()));
  }, [dispatch, authInitialized, isAuthenticated, user?._id, role]); // eslint-disable-line react-hooks/exhaustive-deps

  // A choice made as a guest is saved with the account once signed in.
  useEffect(() => {
    if (!isAuthenticated || !user || consent === null) return;
    const key = `${user._id}:${consent}`;
    if (consentSentFor.current === key) return;
    consentSentFor.current = key;
    void dispatch(saveConsent(consent));
  }, [dispatch, isAuthenticated, user, consent]);
}
