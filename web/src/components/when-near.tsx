import { useEffect, useRef, useState, type ReactNode } from 'react';

/** How far below (or above) the screen a deferred part starts loading, so it is ready when reached. */
export const NEAR_MARGIN = '800px 0px';

/**
 * Renders `children` once the place it holds comes within NEAR_MARGIN of the screen: for the
 * parts of a reader page below the article whose code and requests are not needed to read it
 * (they load while the reader heads there, not with the page). Browsers without
 * IntersectionObserver render them at once.
 */
export function WhenNear({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const node = ref.current;
    if (near || !node) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: NEAR_MARGIN },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [near]);
  return near ? <>{children}</> : <div ref={ref} className="when-near" data-testid="when-near" />;
}
