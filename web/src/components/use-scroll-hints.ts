import { useCallback, useEffect, useState, type RefObject } from 'react';

export interface ScrollHints {
  /** Content hidden to the left / to the right of a horizontally scrolling row. */
  before: boolean;
  after: boolean;
}

/** What lies out of view in a horizontally scrolling element (1 px of slack for rounding). */
export function scrollHintsOf(el: Pick<HTMLElement, 'scrollLeft' | 'scrollWidth' | 'clientWidth'>): ScrollHints {
  const overflow = el.scrollWidth - el.clientWidth;
  if (overflow <= 1) return { before: false, after: false };
  return { before: el.scrollLeft > 1, after: el.scrollLeft < overflow - 1 };
}

/** Follows `scrollHintsOf` as the row scrolls and the window resizes; `scrollBy` moves it by most of its width. */
export function useScrollHints(ref: RefObject<HTMLElement>) {
  const [hints, setHints] = useState<ScrollHints>({ before: false, after: false });
  const update = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const next = scrollHintsOf(el);
    setHints((prev) => (prev.before === next.before && prev.after === next.after ? prev : next));
  }, [ref]);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    update();
    el.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      el.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, [ref, update]);

  const scrollBy = (direction: 1 | -1) => {
    const el = ref.current;
    if (!el) return;
    const left = direction * Math.max(80, el.clientWidth * 0.7);
    if (typeof el.scrollBy === 'function') el.scrollBy({ left, behavior: 'smooth' });
    else el.scrollLeft += left;
    update();
  };

  return { ...hints, scrollBy, update };
}
