import { lazy, Suspense, useEffect, useState } from 'react';
import { whenIdle } from '@/lib/idle';

const ServiceWorkerClient = lazy(() => import('./service-worker-client'));

/**
 * On a first visit (no worker runs the page yet) the worker is registered this long after the
 * page went idle: its install downloads the app's files (the precache), which on a slow phone
 * would compete with the pictures and the reading the person came for. A page a worker already
 * runs registers at once (the browser only checks the script for a new version).
 */
export const FIRST_INSTALL_DELAY_MS = 5000;

/** Runs `work` when the page is idle, and a first install FIRST_INSTALL_DELAY_MS later; answers a cancel. */
export function whenWorkerMayStart(work: () => void, container: ServiceWorkerContainer = navigator.serviceWorker): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancelIdle = whenIdle(() => {
    if (container.controller) work();
    else timer = setTimeout(work, FIRST_INSTALL_DELAY_MS);
  });
  return () => {
    cancelIdle();
    if (timer !== undefined) clearTimeout(timer);
  };
}

/**
 * The service worker's page side, loaded once the page has loaded and the main thread is idle
 * (a first install some seconds later still): neither its code nor the worker's start-up
 * (fetching and precaching the app's files) is part of the first load or competes with it. Nothing in development (Vite's server has
 * no worker) nor where the browser has no service workers.
 */
export function ServiceWorkerUpdates() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
    let cancel = () => {};
    const start = () => {
      cancel = whenWorkerMayStart(() => setWanted(true));
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    return () => {
      window.removeEventListener('load', start);
      cancel();
    };
  }, []);
  return wanted ? (
    <Suspense fallback={null}>
      <ServiceWorkerClient />
    </Suspense>
  ) : null;
}
