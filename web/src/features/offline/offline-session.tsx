import { useEffect } from 'react';
import { useAppSelector } from '@/app/hooks';
import { tellWorker, workerRuns } from './worker-messages';

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
    // Without a worker, this page clears what an earlier one kept. The store's code loads only
    // when needed (a guest's page never opens it).
    if (!userId && !workerRuns()) void import('@/lib/offline-db').then((db) => db.clearPersonalData()).catch(() => undefined);
    if (userId) void import('./queue').then((queue) => queue.startQueueClient());
    navigator.serviceWorker?.addEventListener('controllerchange', tell);
    return () => navigator.serviceWorker?.removeEventListener('controllerchange', tell);
  }, [known, userId]);
  return null;
}
