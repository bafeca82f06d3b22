import { useEffect, useState } from 'react';
import { matchPath, Outlet, useLocation } from 'react-router-dom';
import { OFFLINE_ATTRIBUTE } from '@/lib/offline-db';
import { whenServerAnswers } from '../reachability';
import { useSavedPosts } from '../saved-posts';
import { OfflineScreen } from './offline-screen';

export const OFFLINE_READING = 'You are offline: this is the copy saved on this device. Likes, bookmarks and comments you make are sent when you are back online.';

/** Whether the server answered since this page was served offline. */
function useServerBack(): boolean {
  const [back, setBack] = useState(false);
  useEffect(() => {
    let live = true;
    void whenServerAnswers().then(() => {
      document.documentElement.removeAttribute(OFFLINE_ATTRIBUTE);
      if (live) setBack(true);
    });
    return () => {
      live = false;
    };
  }, []);
  return back;
}

/**
 * The page's place when the service worker served this page offline (the server could not be
 * reached): a saved post reads as usual (its answers come from the worker), any other page is
 * the offline screen listing what can be read. Once the server answers, every page is itself
 * again; the post being read stays as it is (nothing typed in it is lost).
 */
export default function OfflineOutlet() {
  const { pathname } = useLocation();
  const back = useServerBack();
  const saved = useSavedPosts();
  const slug = matchPath('/post/:slug', pathname)?.params.slug;
  const readable = slug !== undefined && Boolean(saved?.some((s) => s.slug === slug));
  if (back || readable) {
    // The page keeps its place when the server comes back (nothing typed in it is lost).
    return (
      <>
        {back ? null : (
          <p className="notice--info offline-notice" data-testid="offline-notice">
            {OFFLINE_READING}
          </p>
        )}
        <Outlet />
      </>
    );
  }
  if (saved === null) return null;
  return <OfflineScreen saved={saved} postMissing={slug !== undefined} />;
}
