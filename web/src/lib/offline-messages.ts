/**
 * What the pages and the service worker say to each other about the offline reading list
 * (no code: the first load may name these without carrying the store, lib/offline-db.ts).
 */

/** What a page asks of the service worker (src/service-worker/offline-routes.ts answers them). */
export type OfflineMessage =
  /** Who is signed in now (null: nobody): a change drops everything personal first. */
  | { type: 'OFFLINE_SESSION'; userId: string | null }
  /** The server answers again: send the queue, then sync the list at once. */
  | { type: 'OFFLINE_RECONNECTED' };

/** What the worker tells the pages after sending, syncing or dropping: read the queue and the list again. */
export const OFFLINE_CHANGED = 'OFFLINE_CHANGED';
/** The Background Sync tag under which the queue is sent. */
export const QUEUE_SYNC_TAG = 'pressroom-offline-queue';
/**
 * The attribute on `<html>` of the shell the worker serves when the server cannot serve a page:
 * the app then shows the saved posts (or the post, when it is one of them).
 */
export const OFFLINE_ATTRIBUTE = 'data-offline';
