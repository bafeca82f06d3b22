import type { OfflineMessage } from '@/lib/offline-db';

/** Sends a message to the service worker that runs this page (nothing when none does). */
export function tellWorker(message: OfflineMessage): void {
  navigator.serviceWorker?.controller?.postMessage(message);
}

/** Whether a service worker runs this page (it keeps the reading list and sends the queue). */
export function workerRuns(): boolean {
  return Boolean(navigator.serviceWorker?.controller);
}
