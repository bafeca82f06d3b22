import { useEffect } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { readingStarted, readingStopped, submitReadingTime } from '@/features/posts';

/** Reports shorter than this are not sent. */
export const MIN_READING_SECONDS = 1;

/**
 * Measures the time a reader spends on a post while its tab is visible, and sends it when they
 * leave (another page, the tab hidden or closed), with `keepalive` so it survives the tab
 * closing. Start and stop go through the posts slice's reading tracking (seed 000 §4).
 */
export function useReadingTracker(postId: string | null | undefined): void {
  const dispatch = useAppDispatch();

  useEffect(() => {
    if (!postId) return;
    let visibleSince: number | null = document.visibilityState === 'visible' ? Date.now() : null;
    let seconds = 0;
    dispatch(readingStarted({ postId, at: Date.now() }));

    const pause = () => {
      if (visibleSince !== null) seconds += (Date.now() - visibleSince) / 1000;
      visibleSince = null;
    };
    const flush = () => {
      pause();
      if (seconds >= MIN_READING_SECONDS) void dispatch(submitReadingTime({ postId, seconds }));
      seconds = 0;
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') flush();
      else if (visibleSince === null) visibleSince = Date.now();
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', flush);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', flush);
      flush();
      dispatch(readingStopped());
    };
  }, [dispatch, postId]);
}
