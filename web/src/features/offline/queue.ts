/**
 * The offline queue, the page's side (loaded on demand): likes, bookmarks and comments made while
 * the server could not be reached are written to IndexedDB (lib/offline-db.ts), so a reload
 * loses nothing, and the service worker sends them when the server answers again
 * (src/service-worker/send-queue.ts: each exactly once). This module keeps the page's view of
 * the queue (pending-store.ts) up to date and watches for the server while something waits.
 */
import { deleteQueued, listQueue, OFFLINE_CHANGED, putQueued, QUEUE_SYNC_TAG, toggleKey, type QueuedComment, type ToggleKind } from '@/lib/offline-db';
import { queuedChanged } from './pending-store';
import { whenServerAnswers } from './reachability';
import { workerRuns } from './worker-messages';

let started = false;

/** Reads the queue again and shows it; watches for the server while something waits. */
export async function refreshQueued(): Promise<void> {
  const entries = await listQueue().catch(() => []);
  queuedChanged(entries);
  if (entries.some((e) => e.kind !== 'comment' || !e.error)) void whenServerAnswers();
}

/** Starts the page's view of the queue (once): read now, and again whenever the worker says so. */
export function startQueueClient(): void {
  if (started) return;
  started = true;
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent<{ type?: unknown } | null>) => {
    if (event.data?.type === OFFLINE_CHANGED) void refreshQueued();
  });
  void refreshQueued();
}

/** Background Sync's part of a registration (not in TypeScript's DOM library). */
interface WithSync {
  sync: { register(tag: string): Promise<void> };
}

function hasSync(registration: object | undefined): registration is WithSync {
  return Boolean(registration && 'sync' in registration);
}

/** Asks the browser to wake the worker when it is back online (Background Sync, where it exists). */
async function askForBackgroundSync() {
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    if (hasSync(registration)) await registration.sync.register(QUEUE_SYNC_TAG);
  } catch {
    // Not available: the pages ask the worker themselves when the server answers.
  }
}

async function queued(write: () => Promise<void>): Promise<boolean> {
  if (!workerRuns()) return false;
  try {
    await write();
  } catch {
    return false;
  }
  startQueueClient();
  await refreshQueued();
  void askForBackgroundSync();
  return true;
}

/** Queues a like or bookmark as the state wanted (replacing an earlier one of the same post). */
export function enqueueToggle({ kind, postId, want, userId }: { kind: ToggleKind; postId: string; want: boolean; userId: string }): Promise<boolean> {
  return queued(() => putQueued({ key: toggleKey(kind, postId), kind, userId, postId, want, createdAt: Date.now() }));
}

/** Queues a comment under its idempotency key (the one its first try was sent with). */
export function enqueueComment(comment: Omit<QueuedComment, 'kind' | 'createdAt' | 'error'>): Promise<boolean> {
  return queued(() => putQueued({ ...comment, kind: 'comment', createdAt: Date.now() }));
}

/** Removes an entry (a refused comment the person discards). */
export async function discardQueued(key: string): Promise<void> {
  await deleteQueued(key);
  await refreshQueued();
}
