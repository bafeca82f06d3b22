/**
 * Timers for moments far ahead. A browser's setTimeout holds its delay in a signed 32-bit
 * number of milliseconds: anything above 2^31 - 1 ms (about 24.8 days) overflows and fires at
 * once. These timers wait in steps of at most that much and re-arm until the moment is reached.
 */

/** The longest delay setTimeout honours: 2^31 - 1 ms. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** Runs `callback` at the time `at` (ms since the epoch; now or in the past runs it next tick). Returns a cancel function. */
export function setTimeoutAt(callback: () => void, at: number, now: () => number = Date.now): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;
  const arm = () => {
    if (cancelled) return;
    const left = at - now();
    if (left <= 0) {
      timer = setTimeout(callback, 0);
      return;
    }
    timer = setTimeout(left > MAX_TIMER_DELAY_MS ? arm : callback, Math.min(left, MAX_TIMER_DELAY_MS));
  };
  arm();
  return () => {
    cancelled = true;
    if (timer !== undefined) clearTimeout(timer);
  };
}

/** Runs `callback` after `delay` ms, however long; returns a cancel function. */
export function setLongTimeout(callback: () => void, delay: number, now: () => number = Date.now): () => void {
  return setTimeoutAt(callback, now() + Math.max(0, delay), now);
}
