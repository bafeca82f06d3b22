/**
 * The answers the service worker keeps for reading offline, and what it gives when the server
 * cannot be reached (docs/decisions.md, "The offline reading list"):
 *
 * - `GET /api/post/{slug}`, a post's comments, supporters and like/bookmark status, the session
 *   check and the bookmarks list: always from the server when it answers (a post the reader opened is then
 *   kept, see reading-list.ts); from what was kept when it does not; else a network error, as
 *   without a worker.
 * - `/media/…`: a picture of a kept post from the cache (its name never changes), else from the
 *   server.
 * - A page the server cannot serve: the precached shell marked `data-offline` on `<html>`, which
 *   makes the app show the saved posts, or the post when it is one of them.
 *
 * The messages pages send (`OfflineMessage`) and what the worker says back (`OFFLINE_CHANGED`),
 * both in lib/offline-db.ts.
 */
import { OFFLINE_API_CACHE, OFFLINE_ATTRIBUTE, OFFLINE_CHANGED, OFFLINE_MEDIA_CACHE, type OfflineMessage } from '@/lib/offline-db';
import { CHECK_PATH, claimOwner, currentOwner, keepAboutPost, postAnswered, slugOfPostPath, syncReadingList, type WorkerDeps } from './reading-list';
import { sendQueue } from './send-queue';

const COMMENTS = /^\/api\/comment\/all-comments\/([^/]+)$/;
const STATUS = /^\/api\/post\/bookmark-status\/([^/]+)$/;
const SUPPORTERS = /^\/api\/post\/([^/]+)\/supporters$/;
const BOOKMARKS = '/api/post/get-post/bookmarks';

/** The precached shell, marked as served offline. */
export async function offlineShell(shell: Response | undefined): Promise<Response> {
  if (!shell) return Response.error();
  const html = (await shell.text()).replace(/<html\b/i, `<html ${OFFLINE_ATTRIBUTE}=""`);
  const headers = new Headers(shell.headers);
  headers.delete('content-length');
  return new Response(html, { status: 200, headers });
}

interface Waiter {
  waitUntil(promise: Promise<unknown>): void;
}

async function saved(path: string, deps: WorkerDeps): Promise<Response> {
  const cache = await deps.caches.open(OFFLINE_API_CACHE);
  return (await cache.match(path, { ignoreVary: true })) ?? Response.error();
}

/** Keeps the answer under `path` when `keep` says so (run after the page has its answer). */
async function store(path: string, response: Response, deps: WorkerDeps) {
  const cache = await deps.caches.open(OFFLINE_API_CACHE);
  await cache.put(path, response);
}

const quietly = (work: Promise<unknown>) => work.catch((error: unknown) => console.warn('offline reading list:', error));

/**
 * What is done with the server's answer to an API read the worker keeps answers of (`url`: its
 * path and query, the key it is kept under), or null when it is not one of them.
 */
export function keeperOf(url: URL, deps: WorkerDeps): ((response: Response) => Promise<void>) | null {
  const path = url.pathname;
  const slug = slugOfPostPath(path);
  if (slug !== null) return (response) => postAnswered(slug, response, deps);
  const postId = COMMENTS.exec(path)?.[1] ?? STATUS.exec(path)?.[1] ?? SUPPORTERS.exec(path)?.[1];
  if (postId) {
    return async (response) => {
      if (response.ok) await keepAboutPost(decodeURIComponent(postId), `${path}${url.search}`, response, deps);
    };
  }
  if (path === BOOKMARKS) {
    return async (response) => {
      if (response.ok && (await currentOwner())) await store(path, response, deps);
    };
  }
  if (path === CHECK_PATH) {
    return async (response) => {
      if (response.status === 401) await claimOwner(null, deps);
      if (!response.ok) return;
      const body = (await response.clone().json()) as { _id?: unknown };
      if (typeof body?._id !== 'string') return;
      await claimOwner(body._id, deps);
      await store(path, response, deps);
    };
  }
  return null;
}

/**
 * An API read the worker keeps answers of: the server's answer (kept after it is given, through
 * `event`), or the kept one when the server cannot be reached.
 */
export async function offlineApiAnswer(request: Request, event: Waiter, deps: WorkerDeps): Promise<Response> {
  const url = new URL(request.url);
  const keep = keeperOf(url, deps);
  let response: Response;
  try {
    response = await deps.fetch(request);
  } catch {
    return saved(`${url.pathname}${url.search}`, deps);
  }
  if (keep) event.waitUntil(quietly(keep(response.clone())));
  return response;
}

/** A picture: from the kept pictures when it is one of them, else from the server. */
export async function mediaAnswer(request: Request, deps: WorkerDeps): Promise<Response> {
  const cache = await deps.caches.open(OFFLINE_MEDIA_CACHE);
  const kept = await cache.match(new URL(request.url).pathname, { ignoreVary: true });
  return kept ?? deps.fetch(request);
}

interface ClientsLike {
  matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly { postMessage(message: unknown): void }[]>;
}

async function tellPages(clients: ClientsLike) {
  for (const client of await clients.matchAll({ type: 'window', includeUncontrolled: true })) client.postMessage({ type: OFFLINE_CHANGED });
}

/**
 * A page's message: who is signed in (a change drops everything personal; then the queue is
 * sent and the list synced), or the server is back (send, then sync at once).
 */
export async function handleOfflineMessage(message: OfflineMessage, deps: WorkerDeps, clients: ClientsLike): Promise<void> {
  switch (message.type) {
    case 'OFFLINE_SESSION': {
      const changed = await claimOwner(message.userId, deps);
      if (changed) await tellPages(clients);
      if (!message.userId) return;
      await sendQueue(deps);
      await syncReadingList(deps, { force: changed });
      break;
    }
    case 'OFFLINE_RECONNECTED':
      await sendQueue(deps);
      await syncReadingList(deps, { force: true });
      break;
  }
  await tellPages(clients);
}

export function isOfflineMessage(data: unknown): data is OfflineMessage {
  const type = (data as { type?: unknown } | null)?.type;
  return type === 'OFFLINE_SESSION' || type === 'OFFLINE_RECONNECTED';
}
