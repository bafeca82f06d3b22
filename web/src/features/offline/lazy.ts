/**
 * The offline reading list's parts that the first load may name (a feature's second public
 * entry, beside its index): each loads its code on demand, so a reader's first load carries only
 * these few lines (the budget of scripts/bundle-budget.mjs).
 */
import { ApiError } from '@/lib/http';
import type { ToggleKind } from '@/lib/offline-db';
import { OFFLINE_ATTRIBUTE } from '@/lib/offline-messages';

/** The request never reached the server (no answer: refused connection, no network, time-out). */
export function isUnreachable(error: unknown): boolean {
  return error instanceof ApiError && error.status === 0 && (error.code === 'network' || error.code === 'timeout');
}

/**
 * When `error` says the server could not be reached, queues the like or bookmark as the state
 * the person wants (sent when the server is back) and resolves true; false otherwise (or when
 * nothing would send it: no service worker runs this page).
 */
export async function queueToggleIfUnreachable(error: unknown, kind: ToggleKind, postId: string, want: boolean, userId: string | undefined): Promise<boolean> {
  if (!userId || !isUnreachable(error)) return false;
  const { enqueueToggle } = await import('./queue');
  return enqueueToggle({ kind, postId, want, userId });
}

/** The page's place when the server could not serve the page (loaded only then). */
export const loadOfflineOutlet = () => import('./components/offline-outlet');


/** Whether the service worker served this page offline (its shell, marked on `<html>`). */
export function servedOffline(): boolean {
  return typeof document !== 'undefined' && document.documentElement.hasAttribute(OFFLINE_ATTRIBUTE);
}
