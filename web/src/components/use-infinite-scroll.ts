import { useEffect, useRef } from 'react';

/**
 * Calls `onReach` when the returned element scrolls into view (and `enabled`), for lists that
 * load their next page as the reader scrolls. Browsers without IntersectionObserver keep the
 * list's "Load more" button.
 */
export function useInfiniteScroll<T extends Element>(onReach: () => void, enabled: boolean) {
  const ref = useRef<T>(null);
  const callback = useRef(onReach);
  callback.current = onReach;

  useEffect(() => {
    const node = ref.current;
    if (!node || !enabled || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) callback.current();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [enabled]);

  return ref;
}
