/**
 * Registers the service worker (/sw.js, scope /) and watches for new versions: a worker that
 * finishes installing while the page is run by an earlier one is announced (`updateFound`), and
 * the browser is asked for a new version every hour and when the tab comes back after one.
 * Loaded on demand, once the page has loaded and the main thread is idle (`service-worker-updates.tsx`).
 */
import { updateFound } from './update-state';

export const SERVICE_WORKER_URL = '/sw.js';
/** How often an open tab looks for a new version. */
export const UPDATE_CHECK_MS = 60 * 60 * 1000;

export async function registerServiceWorker(container: ServiceWorkerContainer = navigator.serviceWorker): Promise<ServiceWorkerRegistration> {
  const registration = await container.register(SERVICE_WORKER_URL, { scope: '/', updateViaCache: 'none' });
  // Only a worker that would replace the one running this page is an update; the first one
  // takes over by itself.
  const announce = (worker: ServiceWorker) => {
    if (container.controller) updateFound(worker);
  };
  if (registration.waiting) announce(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'installed') announce(worker);
    });
  });

  let checked = Date.now();
  const check = () => {
    checked = Date.now();
    registration.update().catch(() => undefined);
  };
  setInterval(check, UPDATE_CHECK_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && Date.now() - checked > UPDATE_CHECK_MS) check();
  });
  return registration;
}
