import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { scrollToTop } from '@/lib/browser';
import { checkAuth } from '@/features/auth';
import { useBannerSync } from '@/features/banner';
import { saveConsent } from '@/features/consent';
import { checkFeedbackPrompt } from '@/features/feedback';
import { trackGuestVisit } from '@/features/guest';
import { fetchIpLocation, useGeolocation } from '@/features/location';
import { fetchUnreadCount, notificationsCleared } from '@/features/notifications';
import { initUserSocket, socketConnectRequested, socketUserLeft, useConnectivityToasts } from '@/features/socket';
import { useThemeEffects } from '@/features/theme';
import { fetchCurrentUser, profileCleared } from '@/features/users';
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

  useEffect(() => {
    void dispatch(checkAuth());
    void dispatch(fetchIpLocation());
  }, [dispatch]);

  useEffect(() => {
    scrollToTop();
  }, [pathname]);

  // One socket for everyone (guests are counted online); reopened when the token changes, and
  // asked to reconnect when the browser comes back online.
  useEffect(() => {
    if (!authInitialized) return;
    const connect = () => dispatch(socketConnectRequested({ token: isAuthenticated ? token : null }));
    connect();
    window.addEventListener('online', connect);
    return () => window.removeEventListener('online', connect);
  }, [dispatch, authInitialized, isAuthenticated, token]);

  useEffect(() => {
    if (!authInitialized) return;
    if (isAuthenticated && user) {
      void dispatch(initUserSocket({ userId: user._id, role }));
      void dispatch(fetchCurrentUser());
      void dispatch(fetchUnreadCount());
      void dispatch(checkFeedbackPrompt());
    } else {
      dispatch(socketUserLeft());
      dispatch(profileCleared());
      dispatch(notificationsCleared());
      void dispatch(trackGuestVisit());
    }
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
