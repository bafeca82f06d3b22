import { useEffect } from 'react';
import { useAppSelector } from '@/app/hooks';
import { tellWorker, workerRuns } from './worker-messages';

/** Set once a signed-in reader's session was told to a worker in this browser (so something may be kept). */
export const KEPT_MARK = 'pressroom.offline.kept';

function markKept(): void {
  try {
    localStorage.setItem(KEPT_MARK, '1');
  } catch {
    // Storage refused (private mode): the worker clears on its own at sign-out.
  }
}

function wasKept(): boolean {
  try {
    return localStorage.getItem(KEPT_MARK) !== null;
  } catch {
    return true;
  }
}

function forgetKept(): void {
  try {
    localStorage.removeItem(KEPT_MARK);
  } catch {
    // Nothing to do.
  }
}

/**
 * Tells the service worker who is signed in, whenever that is known and changes, and when a
 * worker starts running the page (rendered with the worker's registration, features/pwa): a
 * change of person, or nobody (sign-out, an expired session), drops the saved posts, the saved
 * answers and the queue; the signed-in reader's queue is then sent and their list synced.
 * Nothing is said while the session check could not reach the server (the reader may still be
 * signed in).
 */
export function OfflineSession() {
  const userId = useAppSelector((state) => state.auth.user?._id ?? null);
  const known = useAppSelector((state) => state.auth.authInitialized && !state.auth.isCheckingAuth && !state.auth.sessionCheckFailed);
  useEffect(() => {
    if (!known) return;
    const tell = () => tellWorker({ type: 'OFFLINE_SESSION', userId });
    tell();
    if (userId) markKept();
    // Without a worker, this page clears what an earlier one kept: only when a signed-in reader
    // was ever told to one in this browser, so a guest's page never loads the store's code nor
    // opens IndexedDB.
    else if (!workerRuns() && wasKept()) {
      void import('@/lib/offline-db')
        .then((db) => db.clearPersonalData())
        .then(forgetKept)
        .catch(() => undefined);
    }
    if (userId) void import('./queue').then((queue) => queue.startQueueClient());
    navigator.serviceWorker?.addEventListener('controllerchange', tell);
    return () => navigator.serviceWorker?.removeEventListener('controllerchange', tell);
  }, [known, userId]);
  return null;
}
