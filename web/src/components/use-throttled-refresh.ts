import { useEffect, useRef } from 'react';

function isVisible(): boolean {
  return document.visibilityState !== 'hidden';
}

/**
 * Calls `refresh` on mount and whenever `signal` changes, at most once every `intervalMs` and
 * only while the page is visible: changes in between fold into one call at the end of the
 * interval, changes while the page is hidden into one call when it is shown again. For lists a
 * live broadcast says are out of date (the online users on each count change).
 */
export function useThrottledRefresh(refresh: () => void, signal: unknown, intervalMs: number): void {
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  const timing = useRef<{ last: number; stale: boolean; timer: ReturnType<typeof setTimeout> | null }>({
    last: Number.NEGATIVE_INFINITY,
    stale: false,
    timer: null,
  });
  const requestRef = useRef<() => void>(() => {});

  useEffect(() => {
    const t = timing.current;
    const run = () => {
      t.timer = null;
      if (!isVisible()) return;
      t.stale = false;
      t.last = Date.now();
      refreshRef.current();
    };
    const request = () => {
      t.stale = true;
      if (!isVisible() || t.timer) return;
      const wait = t.last + intervalMs - Date.now();
      if (wait <= 0) run();
      else t.timer = setTimeout(run, wait);
    };
    const onVisibility = () => {
      if (isVisible() && t.stale) request();
    };
    requestRef.current = request;
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      if (t.timer) clearTimeout(t.timer);
      t.timer = null;
    };
  }, [intervalMs]);

  useEffect(() => {
    requestRef.current();
  }, [signal]);
}
