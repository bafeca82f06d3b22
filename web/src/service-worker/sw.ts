/// <reference lib="webworker" />
/**
 * The service worker (/sw.js, scope /), built by vite-plugin-pwa's injectManifest from this file.
 *
 * - Precache: the app shell and the static files of this build (the list Workbox injects as
 *   `self.__WB_MANIFEST`, chosen in vite.config.ts: no API viewer, no compressed copies, no
 *   writers' or administrators' tools), answered from the cache by their versioned URLs; the
 *   caches of earlier builds' precaches are dropped once this worker activates.
 * - Pages: always from the server (it fills each page in for its address, with true status
 *   codes; navigation preload saves the worker's start-up time); offline, the precached shell,
 *   marked offline (the app then shows the saved posts).
 * - Updates: a new worker waits until the page asks it to take over (`SKIP_WAITING`, sent when
 *   the person presses "Reload" on the update prompt); the first one takes over at once.
 * - Push: notifications.ts.
 * - The offline reading list: offline-routes.ts (the answers and pictures kept, the shell marked
 *   offline), reading-list.ts (which posts, the sync), send-queue.ts (what was done offline).
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { deviceLabel } from '@/lib/device-label';
import { QUEUE_SYNC_TAG } from '@/lib/offline-db';
import { handleNotificationClick, handlePush } from './notifications';
import { handleOfflineMessage, isOfflineMessage, keeperOf, mediaAnswer, offlineApiAnswer, offlineShell } from './offline-routes';
import { sendQueue, type SendResult } from './send-queue';
import type { WorkerDeps } from './reading-list';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

/** The shell served for a page when the server cannot be reached. */
const OFFLINE_SHELL = '/index.html';
/** Paths that are never pages of the app (the server's own). */
const NOT_PAGES = [/^\/api(\/|$)/, /^\/socket\.io(\/|$)/, /^\/media(\/|$)/, /^\/api-docs(\/|$)/, /^\/health$/, /^\/metrics$/];

/** What the offline reading list's functions use of the worker's scope. */
const deps: WorkerDeps = { fetch: (input, init) => fetch(input, init), caches: self.caches, now: () => Date.now() };

// The precached files answer only their own URLs: `/` stays the server's page, not the shell.
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: '', cleanURLs: false });
cleanupOutdatedCaches();

// The API answers kept for reading offline (a post, its comments, supporters and status, the
// session check, the bookmarks), and the pictures of the kept posts.
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && keeperOf(url, deps) !== null,
  ({ request, event }) => offlineApiAnswer(request, event, deps),
  'GET',
);
registerRoute(({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/media/'), ({ request }) => mediaAnswer(request, deps), 'GET');

registerRoute(
  new NavigationRoute(
    async ({ event, request }) => {
      try {
        const preloaded = (await (event as FetchEvent).preloadResponse) as Response | undefined;
        return preloaded ?? (await fetch(request));
      } catch {
        // The app then shows the saved posts (or the post, when it is one of them).
        return offlineShell(await matchPrecache(OFFLINE_SHELL));
      }
    },
    { denylist: NOT_PAGES },
  ),
);

self.addEventListener('activate', (event) => {
  event.waitUntil(self.registration.navigationPreload?.enable() ?? Promise.resolve());
});
clientsClaim();

self.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown } | null;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
  if (isOfflineMessage(data)) event.waitUntil(handleOfflineMessage(data, deps, self.clients));
});

// Background Sync (where the browser has it): the queue is sent when the browser is back online,
// even with no tab open. The pages also ask for it when they see the server again.
self.addEventListener('sync', (event) => {
  const sync = event as Event & { tag?: string; waitUntil(p: Promise<unknown>): void };
  if (sync.tag !== QUEUE_SYNC_TAG) return;
  sync.waitUntil(
    sendQueue(deps).then((result: SendResult) => {
      if (result.waiting > 0) throw new Error('the server could not be reached: tried again later');
    }),
  );
});

self.addEventListener('push', (event) => {
  event.waitUntil(handlePush(self, event.data));
});

self.addEventListener('notificationclick', (event) => {
  event.waitUntil(handleNotificationClick(self, event.notification));
});

/**
 * The push service replaced the subscription (rare: an expiry or a key rotation): subscribe
 * again with the same key and register the new address, with the session cookie of the site.
 */
self.addEventListener('pushsubscriptionchange', (event) => {
  const change = event as Event & { oldSubscription?: PushSubscription | null; newSubscription?: PushSubscription | null; waitUntil(p: Promise<unknown>): void };
  change.waitUntil(
    (async () => {
      const key = change.oldSubscription?.options.applicationServerKey;
      const next = change.newSubscription ?? (key ? await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }) : null);
      if (!next) return;
      await fetch('/api/push/subscriptions', {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ ...next.toJSON(), label: deviceLabel(self.navigator.userAgent) }),
      });
    })().catch(() => undefined),
  );
});
