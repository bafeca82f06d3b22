import { useEffect, useRef } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { checkAuth } from './auth-slice';

/** Pauses between session checks that failed without a 401; the last one repeats. */
export const SESSION_CHECK_RETRY_MS = [2000, 4000, 8000, 16_000, 30_000] as const;

/**
 * A session check that failed for another reason than a 401 (the server or the network was
 * away) keeps the session and is tried again: after 2, 4, 8, 16 s, then every 30 s, and at once
 * when the browser comes back online. Only a 401 ends the session.
 */
export function useSessionCheckRetry(): void {
  const dispatch = useAppDispatch();
  const failed = useAppSelector((state) => state.auth.sessionCheckFailed && !state.auth.isCheckingAuth);
  const attempts = useRef(0);

  useEffect(() => {
    if (!failed) {
      return;
    }
    const wait = SESSION_CHECK_RETRY_MS[Math.min(attempts.current, SESSION_CHECK_RETRY_MS.length - 1)];
    const retry = () => {
      attempts.current += 1;
      void dispatch(checkAuth());
    };
    const timer = setTimeout(retry, wait);
    window.addEventListener('online', retry);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('online', retry);
    };
  }, [dispatch, failed]);

  const succeeded = useAppSelector((state) => !state.auth.sessionCheckFailed);
  useEffect(() => {
    if (succeeded) attempts.current = 0;
  }, [succeeded]);
}
