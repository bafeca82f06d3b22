import { lazy, Suspense, useEffect, useState } from 'react';
import { whenIdle } from '@/lib/idle';

const ServiceWorkerClient = lazy(() => import('./service-worker-client'));

/**
 * The service worker's page side, loaded once the page has loaded and the main thread is idle:
 * neither its code nor the worker's start-up (fetching and precaching the app's files) is part
 * of the first load or competes with the first paint. Nothing in development (Vite's server has
 * no worker) nor where the browser has no service workers.
 */
export function ServiceWorkerUpdates() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
    let cancel = () => {};
    const start = () => {
      cancel = whenIdle(() => setWanted(true));
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
