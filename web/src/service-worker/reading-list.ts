/**
 * The offline reading list, the service worker's side: which posts are kept on this device, for
 * whom, and keeping them true to what the reader may read (docs/decisions.md, "The offline
 * reading list").
 *
 * - Kept: the reader's bookmarks (the newest BOOKMARKS_MAX) and the posts they opened in the last
 *   RECENT_DAYS (the RECENT_MAX most recent), each as its `GET /api/post/{slug}` answer with its
 *   comments and like/bookmark status (and its supporters, as the page read them), and its
 *   pictures (every size the page may ask for) and author's avatar.
 * - Only for a signed-in reader (`owner`); a change of owner (sign-out, another account, an
 *   expired session) drops everything first.
 * - A post answered `locked` (a subscribers-only post the reader may not read now), or gone
 *   (403/404/410), is dropped when it is read and at every sync.
 *
 * Plain functions over what they use (`WorkerDeps`), so they run in unit tests as in the worker.
 */
import type { Post } from '@/types/entities';
import {
  BOOKMARKS_MAX,
  clearPersonalData,
  deleteSaved,
  getMeta,
  getSaved,
  listSaved,
  OFFLINE_API_CACHE,
  OFFLINE_MEDIA_CACHE,
  putSaved,
  RECENT_MAX,
  RECENT_MS,
  setMeta,
  type SavedPost,
} from '@/lib/offline-db';

export interface WorkerDeps {
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  caches: CacheStorage;
  now: () => number;
}

/** A sync asked for without `force` is skipped when the last one is more recent than this. */
export const MIN_SYNC_INTERVAL_MS = 60_000;
/** How many posts a sync reads at once. */
const SYNC_PARALLEL = 4;
/** Single-segment paths under /api/post/ that are not a post. */
const NOT_SLUGS = new Set(['all-post', 'following', 'search-users']);

/** The slug of a `GET /api/post/{slug}` path, or null. */
export function slugOfPostPath(pathname: string): string | null {
  const found = /^\/api\/post\/([^/]+)$/.exec(pathname);
  if (!found || NOT_SLUGS.has(found[1])) return null;
  try {
    return decodeURIComponent(found[1]);
  } catch {
    return null;
  }
}

export const postPath = (slug: string) => `/api/post/${encodeURIComponent(slug)}`;
export const commentsPath = (postId: string) => `/api/comment/all-comments/${encodeURIComponent(postId)}`;
export const statusPath = (postId: string) => `/api/post/bookmark-status/${encodeURIComponent(postId)}`;
export const CHECK_PATH = '/api/auth/check';

/** How the worker's own requests go: with the session cookie, asking for JSON. */
export const API_INIT: RequestInit = { credentials: 'include', headers: { Accept: 'application/json' }, cache: 'no-store' };

function isMedia(src: unknown): src is string {
  return typeof src === 'string' && src.startsWith('/media/');
}

/** Every stored picture of a post: thumbnail and image blocks in all their sizes, and the author's avatar. */
export function mediaOf(post: Post): string[] {
  const found = new Set<string>();
  const add = (src: unknown) => {
    if (isMedia(src)) found.add(src);
  };
  const addVariants = (variants: unknown) => {
    if (Array.isArray(variants)) for (const v of variants as { src?: unknown }[]) add(v?.src);
  };
  add(post.thumbnail);
  add(post.thumbnailImage?.src);
  addVariants(post.thumbnailImage?.variants);
  add(post.author?.avatar);
  for (const block of post.blocks ?? []) {
    if (block.type !== 'image') continue;
    const file = (block.data as { file?: { url?: unknown; variants?: unknown } }).file;
    add(file?.url);
    addVariants(file?.variants);
  }
  return [...found];
}

/** The signed-in reader whose list this is, if any. */
export async function currentOwner(): Promise<string | null> {
  const owner = await getMeta('owner');
  return typeof owner === 'string' && owner ? owner : null;
}

/**
 * The page (or the session check) says who is signed in: when it is someone else than the
 * owner of what is kept (or nobody), everything personal is dropped first.
 */
export async function claimOwner(userId: string | null, deps: Pick<WorkerDeps, 'caches'>): Promise<boolean> {
  const owner = await currentOwner();
  if (owner === userId) return false;
  await clearPersonalData(deps.caches);
  if (userId) await setMeta('owner', userId);
  return true;
}

async function put(cacheName: string, path: string, response: Response, deps: WorkerDeps) {
  const cache = await deps.caches.open(cacheName);
  await cache.put(path, response);
}

/** Stores the pictures not stored yet (their names never change: a stored one is up to date). */
async function storeMedia(media: string[], deps: WorkerDeps) {
  const cache = await deps.caches.open(OFFLINE_MEDIA_CACHE);
  for (const src of media) {
    if (await cache.match(src)) continue;
    try {
      const response = await deps.fetch(src, { credentials: 'same-origin' });
      if (response.ok) await cache.put(src, response);
    } catch {
      // Offline again: the next save or sync fetches it.
    }
  }
}

/** Stores a JSON answer the worker reads itself (comments, status) when it is not stored yet or `refresh`. */
async function storeAnswer(path: string, deps: WorkerDeps, refresh: boolean) {
  const cache = await deps.caches.open(OFFLINE_API_CACHE);
  if (!refresh && (await cache.match(path, { ignoreVary: true }))) return;
  try {
    const response = await deps.fetch(path, API_INIT);
    if (response.ok) await cache.put(path, response);
  } catch {
    // Offline again.
  }
}

export interface RememberOptions {
  /** The reader opened it now. */
  opened?: boolean;
  /** It is among the reader's bookmarks (undefined: as known before). */
  bookmarked?: boolean;
  /** Also read its comments and like/bookmark status now (the page reads them itself when it opens the post). */
  withExtras?: boolean;
}

/**
 * Keeps a post the reader may read: its answer (`answer`: a response of `GET /api/post/{slug}`
 * whose body is `post`), its pictures, and its entry in the list. A post they may not read is
 * forgotten instead. The recently opened beyond RECENT_MAX are dropped.
 */
export async function rememberPost(post: Post, answer: Response, options: RememberOptions, deps: WorkerDeps): Promise<void> {
  if (post.locked) {
    await forgetPost(post.slug, deps);
    return;
  }
  const before = await getSaved(post.slug);
  const media = mediaOf(post);
  const entry: SavedPost = {
    slug: post.slug,
    postId: post._id,
    title: post.title,
    authorName: post.author?.name ?? null,
    excerpt: post.excerpt ?? null,
    bookmarked: options.bookmarked ?? before?.bookmarked ?? false,
    openedAt: options.opened ? deps.now() : (before?.openedAt ?? null),
    savedAt: deps.now(),
    media,
  };
  await put(OFFLINE_API_CACHE, postPath(post.slug), answer, deps);
  await putSaved(entry);
  await keepEarly(post._id, deps);
  if (before) await dropUnusedMedia(before.media.filter((src) => !media.includes(src)), deps);
  if (options.opened) await pruneRecent(deps);
  await storeMedia(media, deps);
  if (options.withExtras) {
    await storeAnswer(commentsPath(post._id), deps, false);
    await storeAnswer(statusPath(post._id), deps, false);
  }
}

/** Removes a post: its entry, its stored answers, and the pictures no other kept post shows. */
export async function forgetPost(slug: string, deps: Pick<WorkerDeps, 'caches'>): Promise<void> {
  const entry = await getSaved(slug);
  const api = await deps.caches.open(OFFLINE_API_CACHE);
  await api.delete(postPath(slug));
  if (!entry) return;
  await deleteSaved(slug);
  await api.delete(commentsPath(entry.postId));
  await api.delete(statusPath(entry.postId));
  // Every page of its supporters list.
  await api.delete(`/api/post/${encodeURIComponent(entry.postId)}/supporters`, { ignoreSearch: true });
  await dropUnusedMedia(entry.media, deps);
}

async function dropUnusedMedia(media: string[], deps: Pick<WorkerDeps, 'caches'>) {
  if (media.length === 0) return;
  const inUse = new Set((await listSaved()).flatMap((s) => s.media));
  const cache = await deps.caches.open(OFFLINE_MEDIA_CACHE);
  for (const src of media) if (!inUse.has(src)) await cache.delete(src);
}

/** Only the RECENT_MAX most recently opened posts stay as recent ones (bookmarks stay anyway). */
async function pruneRecent(deps: WorkerDeps) {
  const recent = (await listSaved()).filter((s) => !s.bookmarked).sort((a, b) => (b.openedAt ?? 0) - (a.openedAt ?? 0));
  for (const old of recent.slice(RECENT_MAX)) await forgetPost(old.slug, deps);
}

/** Whether the post with this id is kept (its comments and status answers are kept with it). */
export async function isSavedPostId(postId: string): Promise<boolean> {
  return (await listSaved()).some((s) => s.postId === postId);
}

async function readPost(response: Response): Promise<Post | null> {
  try {
    const body = (await response.clone().json()) as { post?: Post };
    return body?.post ?? null;
  } catch {
    return null;
  }
}

/**
 * What the worker does with an answer of `GET /api/post/{slug}` the page received: a post the
 * reader opened is kept (or dropped when locked or gone), for a signed-in reader only.
 */
export async function postAnswered(slug: string, response: Response, deps: WorkerDeps): Promise<void> {
  if (!(await currentOwner())) return;
  if ([403, 404, 410].includes(response.status)) {
    await forgetPost(slug, deps);
    return;
  }
  if (!response.ok) return;
  const post = await readPost(response);
  if (post && post.slug === slug) await rememberPost(post, response.clone(), { opened: true }, deps);
}

/** How long an answer about a post waits for the post to be kept (the page asks in any order). */
export const EARLY_ANSWER_MS = 60_000;
/** Answers about a post (comments, status, supporters) that came before the post was kept. */
const early = new Map<string, { key: string; response: Response; at: number }[]>();

async function keepEarly(postId: string, deps: WorkerDeps) {
  const waiting = early.get(postId) ?? [];
  early.delete(postId);
  for (const { key, response, at } of waiting) if (deps.now() - at <= EARLY_ANSWER_MS) await put(OFFLINE_API_CACHE, key, response, deps);
}

/**
 * Keeps an answer about a post (under `key`, its path and query) when the post is kept; one
 * that comes before the post is (a page painted by the server asks for its comments before it
 * reads the post again) waits for it a while.
 */
export async function keepAboutPost(postId: string, key: string, response: Response, deps: WorkerDeps): Promise<void> {
  if (!(await currentOwner())) return;
  for (const [id, list] of early) if (list.every((e) => deps.now() - e.at > EARLY_ANSWER_MS)) early.delete(id);
  early.set(postId, [...(early.get(postId) ?? []).filter((e) => e.key !== key), { key, response, at: deps.now() }]);
  if (await isSavedPostId(postId)) await keepEarly(postId, deps);
}

type Outcome = 'kept' | 'dropped' | 'unknown';

/** Reads one post again: kept up to date, or dropped when the reader lost it. */
async function refresh(slug: string, bookmarked: boolean, deps: WorkerDeps): Promise<Outcome> {
  let response: Response;
  try {
    response = await deps.fetch(postPath(slug), API_INIT);
  } catch {
    return 'unknown';
  }
  if ([403, 404, 410].includes(response.status)) {
    await forgetPost(slug, deps);
    return 'dropped';
  }
  if (!response.ok) return 'unknown';
  const post = await readPost(response);
  if (!post) return 'unknown';
  if (post.locked) {
    await forgetPost(slug, deps);
    return 'dropped';
  }
  await rememberPost(post, response, { bookmarked, withExtras: true }, deps);
  return 'kept';
}

export interface SyncResult {
  kept: string[];
  dropped: string[];
}

/**
 * The sync: the reader's bookmarks are read, the list becomes their bookmarks and their recent
 * posts, and every kept post is read again, so that one they lost access to (a refund, a
 * cancelled subscription, a post turned subscribers-only) or that is gone is dropped. Without
 * `force`, nothing happens within MIN_SYNC_INTERVAL_MS of the last sync. A 401 ends the session:
 * everything personal is dropped.
 */
export async function syncReadingList(deps: WorkerDeps, { force = false } = {}): Promise<SyncResult | null> {
  if (!(await currentOwner())) return null;
  const last = await getMeta('syncedAt');
  if (!force && typeof last === 'number' && deps.now() - last < MIN_SYNC_INTERVAL_MS) return null;
  let response: Response;
  try {
    response = await deps.fetch('/api/post/get-post/bookmarks', API_INIT);
  } catch {
    return null;
  }
  if (response.status === 401) {
    await claimOwner(null, deps);
    return null;
  }
  if (!response.ok) return null;
  const { posts = [] } = ((await response.json().catch(() => ({}))) ?? {}) as { posts?: Post[] };
  const bookmarks = posts.filter((p) => p && typeof p.slug === 'string').slice(0, BOOKMARKS_MAX);
  const bookmarked = new Set(bookmarks.map((p) => p.slug));
  const now = deps.now();
  const saved = await listSaved();
  const recent = saved
    .filter((s) => s.openedAt !== null && now - s.openedAt <= RECENT_MS)
    .sort((a, b) => (b.openedAt ?? 0) - (a.openedAt ?? 0))
    .slice(0, RECENT_MAX)
    .map((s) => s.slug);
  const wanted = [...new Set([...bookmarked, ...recent])];
  const result: SyncResult = { kept: [], dropped: [] };
  for (const s of saved) {
    if (!wanted.includes(s.slug)) {
      await forgetPost(s.slug, deps);
      result.dropped.push(s.slug);
    }
  }
  // A bookmark the list already shows locked needs no second read.
  const lockedBookmarks = new Set(bookmarks.filter((p) => p.locked).map((p) => p.slug));
  const queue = [...wanted];
  const work = async () => {
    for (let slug = queue.shift(); slug !== undefined; slug = queue.shift()) {
      if (lockedBookmarks.has(slug)) {
        await forgetPost(slug, deps);
        result.dropped.push(slug);
        continue;
      }
      const outcome = await refresh(slug, bookmarked.has(slug), deps);
      if (outcome === 'dropped') result.dropped.push(slug);
      else if (outcome === 'kept') result.kept.push(slug);
    }
  };
  await Promise.all(Array.from({ length: SYNC_PARALLEL }, work));
  await setMeta('syncedAt', deps.now());
  return result;
}
