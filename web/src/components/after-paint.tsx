import { useEffect, useState, type ReactNode } from 'react';

/**
 * Renders `children` in a task of their own after the page has painted what comes before them:
 * a reader page's first render then carries the article alone, and the parts under it (the
 * newsletter form, the comments, what to read next) follow once the article is on screen,
 * instead of one long task drawing everything at once. Where the browser has no frames to wait
 * for (a hidden tab, tests), they follow at the next task.
 */
export function AfterPaint({ children }: { children: ReactNode }) {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let frame: number | undefined;
    const show = () => setPainted(true);
    if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') {
      // The callback runs before the next paint; the timer after it, once that paint is done.
      frame = requestAnimationFrame(() => {
        timer = setTimeout(show, 0);
      });
    } else {
      timer = setTimeout(show, 0);
    }
    return () => {
      if (frame !== undefined) cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, []);
  return painted ? <>{children}</> : null;
}
