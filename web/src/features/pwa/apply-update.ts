import { reloadPage } from '@/lib/browser';
import { waitingWorker } from './update-state';

/** The message the waiting worker takes over on (src/service-worker/sw.ts). */
export const SKIP_WAITING = { type: 'SKIP_WAITING' } as const;
/** How long "Reload" waits for the new worker to take over before reloading anyway. */
export const TAKE_OVER_TIMEOUT_MS = 4000;

/**
 * Lets the waiting worker take over and reloads the page once it has (`controllerchange`), or
 * after TAKE_OVER_TIMEOUT_MS, or at once when no worker waits any more (another tab applied it).
 * Only ever called by the person's press of "Reload": a reload while someone types would lose
 * what they typed.
 */
export function applyUpdate(container: ServiceWorkerContainer | undefined = navigator.serviceWorker): void {
  let done = false;
  const reload = () => {
    if (done) return;
    done = true;
    reloadPage();
  };
  const worker = waitingWorker();
  if (!container || !worker || worker.state === 'redundant' || worker.state === 'activated') {
    reload();
    return;
  }
  container.addEventListener('controllerchange', reload, { once: true });
  setTimeout(reload, TAKE_OVER_TIMEOUT_MS);
  worker.postMessage(SKIP_WAITING);
}
