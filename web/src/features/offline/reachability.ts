/**
 * Whether the server answers again, for a page that saw it could not be reached (served offline,
 * or something was queued): `/health` is asked every PROBE_MS (and at once when the browser
 * says it is back online) until it answers; the service worker is then told, so it sends the
 * queue and syncs the reading list.
 */
import { tellWorker } from './worker-messages';

/** How often an offline page asks whether the server is back. */
export const PROBE_MS = 5000;
const PROBE_PATH = '/health';

let waiting: Promise<void> | null = null;
/** When the worker was last told (it is told at most once per PROBE_MS, whatever asks). */
let told = 0;

async function answers(): Promise<boolean> {
  try {
    return (await fetch(PROBE_PATH, { cache: 'no-store' })).ok;
  } catch {
    return false;
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    window.addEventListener('online', done);
  });
}

/**
 * Resolves once the server answers (at once when it does now); the worker has then been told.
 * One watch per page, shared by every caller.
 */
export function whenServerAnswers(): Promise<void> {
  waiting ??= (async () => {
    const since = Date.now() - told;
    if (since < PROBE_MS) await pause(PROBE_MS - since);
    while (!(await answers())) await pause(PROBE_MS);
    told = Date.now();
    tellWorker({ type: 'OFFLINE_RECONNECTED' });
  })().finally(() => {
    waiting = null;
  });
  return waiting;
}
