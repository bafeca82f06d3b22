/**
 * Runs work that the first screen does not need (the socket, guest tracking, prompts) after the
 * page has painted and when the main thread is idle, so it never delays the reader's first paint
 * or input. Returns a function that cancels it if it has not run yet.
 */
export const IDLE_TIMEOUT_MS = 2000;

export function whenIdle(work: () => void): () => void {
  let cancelled = false;
  let idleHandle: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    if (!cancelled) work();
  };
  const afterPaint = () => {
    if (cancelled) return;
    if (typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function') {
      idleHandle = window.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    } else {
      timer = setTimeout(run, 0);
    }
  };
  if (typeof window !== 'undefined' && typeof window.requestAnimationFrame === 'function' && document.visibilityState === 'visible') {
    // The frame after the next one: the first paint has happened by then.
    window.requestAnimationFrame(() => {
      timer = setTimeout(afterPaint, 0);
    });
  } else {
    timer = setTimeout(afterPaint, 0);
  }
  return () => {
    cancelled = true;
    if (idleHandle !== undefined) window.cancelIdleCallback?.(idleHandle);
    if (timer !== undefined) clearTimeout(timer);
  };
}
