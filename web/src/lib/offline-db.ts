/**
 * The offline reading list's store on this device, shared by the page and the service worker
 * (both open the same IndexedDB database, through `idb`):
 *
 * - `saved`: the posts kept for reading offline (their API answers and pictures are in the
 *   caches named below), keyed by slug;
 * - `queue`: likes, bookmarks and comments made while the server could not be reached, waiting
 *   to be sent (a like or bookmark as the state the person wants, one entry per post and kind; a
 *   comment with the idempotency key it was given when queued);
 * - `meta`: whose data this is (`owner`, the signed-in user's id) and when the list was synced.
 *
 * Everything here is personal: `clearPersonalData` drops it with the caches (sign-out, another
 * account). Nothing in this file talks to the server.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

export { OFFLINE_ATTRIBUTE, OFFLINE_CHANGED, QUEUE_SYNC_TAG, type OfflineMessage } from './offline-messages';

export const OFFLINE_DB_NAME = 'pressroom-offline';
const OFFLINE_DB_VERSION = 1;
/** Saved API answers (`/api/post/{slug}`, its comments and like/bookmark status, the session check). */
export const OFFLINE_API_CACHE = 'pressroom-offline-api';
/** The pictures of saved posts (and their authors' avatars). */
export const OFFLINE_MEDIA_CACHE = 'pressroom-offline-media';

/** How many posts opened recently are kept, and for how long after they were last opened. */
export const RECENT_MAX = 30;
export const RECENT_DAYS = 7;
export const RECENT_MS = RECENT_DAYS * 24 * 60 * 60 * 1000;
/** How many bookmarked posts are kept (the newest bookmarks first). */
export const BOOKMARKS_MAX = 100;

export interface SavedPost {
  slug: string;
  postId: string;
  title: string;
  authorName: string | null;
  excerpt: string | null;
  /** Among the reader's bookmarks at the last sync (or bookmarked here since). */
  bookmarked: boolean;
  /** When the reader last opened it (ms), null when it is kept only as a bookmark. */
  openedAt: number | null;
  /** When its answer was last stored (ms). */
  savedAt: number;
  /** The media addresses cached with it. */
  media: string[];
}

export type ToggleKind = 'like' | 'bookmark';

export interface QueuedToggle {
  /** `like:<postId>` or `bookmark:<postId>`: a later toggle replaces the earlier one. */
  key: string;
  kind: ToggleKind;
  userId: string;
  postId: string;
  /** The state the person wants (liked / bookmarked). */
  want: boolean;
  createdAt: number;
}

export interface QueuedComment {
  /** The comment's idempotency key (sent as `Idempotency-Key`). */
  key: string;
  kind: 'comment';
  userId: string;
  postId: string;
  parentId: string | null;
  content: string;
  author: { _id: string; name: string };
  createdAt: number;
  /** The server refused it (a 4xx other than a time-out or a limit): kept so the text is not lost. */
  error?: string;
}

export type QueueEntry = QueuedToggle | QueuedComment;


interface OfflineSchema extends DBSchema {
  saved: { key: string; value: SavedPost };
  queue: { key: string; value: QueueEntry };
  meta: { key: string; value: string | number };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

let opening: Promise<OfflineDb> | null = null;

export function openOfflineDb(): Promise<OfflineDb> {
  opening ??= openDB<OfflineSchema>(OFFLINE_DB_NAME, OFFLINE_DB_VERSION, {
    upgrade(db) {
      db.createObjectStore('saved', { keyPath: 'slug' });
      db.createObjectStore('queue', { keyPath: 'key' });
      db.createObjectStore('meta');
    },
  }).catch((error: unknown) => {
    opening = null;
    throw error;
  });
  return opening;
}

export const toggleKey = (kind: ToggleKind, postId: string) => `${kind}:${postId}`;

// ── Saved posts ─────────────────────────────────────────────────────────────────────────────

/** The saved posts, bookmarked first, then the most recently opened. */
export async function listSaved(): Promise<SavedPost[]> {
  const all = await (await openOfflineDb()).getAll('saved');
  return all.sort((a, b) => Number(b.bookmarked) - Number(a.bookmarked) || (b.openedAt ?? 0) - (a.openedAt ?? 0) || a.title.localeCompare(b.title));
}

export async function getSaved(slug: string): Promise<SavedPost | undefined> {
  return (await openOfflineDb()).get('saved', slug);
}

export async function putSaved(post: SavedPost): Promise<void> {
  await (await openOfflineDb()).put('saved', post);
}

export async function deleteSaved(slug: string): Promise<void> {
  await (await openOfflineDb()).delete('saved', slug);
}

// ── The queue ───────────────────────────────────────────────────────────────────────────────

/** The queued entries, oldest first. */
export async function listQueue(): Promise<QueueEntry[]> {
  const all = await (await openOfflineDb()).getAll('queue');
  return all.sort((a, b) => a.createdAt - b.createdAt || a.key.localeCompare(b.key));
}

export async function putQueued(entry: QueueEntry): Promise<void> {
  await (await openOfflineDb()).put('queue', entry);
}

export async function deleteQueued(key: string): Promise<void> {
  await (await openOfflineDb()).delete('queue', key);
}

// ── Owner and bookkeeping ───────────────────────────────────────────────────────────────────

export async function getMeta(key: 'owner' | 'syncedAt'): Promise<string | number | undefined> {
  return (await openOfflineDb()).get('meta', key);
}

export async function setMeta(key: 'owner' | 'syncedAt', value: string | number): Promise<void> {
  await (await openOfflineDb()).put('meta', value, key);
}

/**
 * Drops everything personal: the saved posts, the queue, whose data it was, and the caches of
 * saved answers and pictures.
 */
export async function clearPersonalData(cacheStorage: CacheStorage | undefined = globalThis.caches): Promise<void> {
  const db = await openOfflineDb();
  const tx = db.transaction(['saved', 'queue', 'meta'], 'readwrite');
  await Promise.all([tx.objectStore('saved').clear(), tx.objectStore('queue').clear(), tx.objectStore('meta').clear(), tx.done]);
  if (cacheStorage) await Promise.all([cacheStorage.delete(OFFLINE_API_CACHE), cacheStorage.delete(OFFLINE_MEDIA_CACHE)]);
}
