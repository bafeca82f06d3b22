/**
 * Whether a new version of the app waits to take over (its service worker installed while this
 * page runs the current one), kept outside the store: it concerns this tab, never the account.
 * `register-service-worker.ts` announces it; the update prompt shows it.
 */
import { useSyncExternalStore } from 'react';

let waiting: ServiceWorker | null = null;
/** How many new versions were found since the page loaded (0: none). */
let generation = 0;
const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

/** A new worker is installed and waiting (the page is run by the previous one). */
export function updateFound(worker: ServiceWorker): void {
  if (worker === waiting) return;
  waiting = worker;
  generation += 1;
  notify();
}

/** The worker of the newest version found, if any. */
export function waitingWorker(): ServiceWorker | null {
  return waiting;
}

/** Test helper: back to "no update". */
export function resetUpdateState(): void {
  waiting = null;
  generation = 0;
  notify();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The number of the newest version found since the page loaded, 0 when none (re-renders when one is found). */
export function useUpdateGeneration(): number {
  return useSyncExternalStore(subscribe, () => generation, () => 0);
}
