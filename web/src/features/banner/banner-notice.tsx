import { useEffect, useMemo, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { setTimeoutAt } from '@/lib/long-timer';
import { safeHref } from '@/lib/safe-url';
import { BANNER_KEY, storage } from '@/lib/storage';
import { toast } from '@/lib/toast';
import {
  BANNER_EXPIRED,
  bannerExpired,
  bannerSynced,
  dismissBanner,
  isExpired,
  fetchBanners,
  readBannerMirror,
  selectVisibleBanner,
  type BannerViewer,
} from './banner-slice';

/** Loads banners when the session is known, mirrors them in local storage and follows other tabs. */
export function useBannerSync(): void {
  const dispatch = useAppDispatch();
  const { authInitialized, isAuthenticated, user } = useAppSelector((state) => state.auth);
  const banners = useAppSelector((state) => state.banner.banners);
  const dismissedIds = useAppSelector((state) => state.banner.dismissedIds);

  useEffect(() => {
    if (!authInitialized) return;
    void dispatch(fetchBanners({ checkDismissed: isAuthenticated }));
  }, [dispatch, authInitialized, isAuthenticated, user?._id]);

  // Read again when the socket (re)connects, not when it drops: a banner created, deactivated or
  // deleted while the page had no socket yet (it opens when the page is idle) is caught up.
  const socketConnected = useAppSelector((state) => state.socket.status === 'connected');
  const wasConnected = useRef(socketConnected);
  useEffect(() => {
    const connectedNow = socketConnected && !wasConnected.current;
    wasConnected.current = socketConnected;
    if (connectedNow && authInitialized) void dispatch(fetchBanners({ checkDismissed: isAuthenticated }));
  }, [dispatch, socketConnected, authInitialized, isAuthenticated]);

  useEffect(() => {
    const next = JSON.stringify({ banners, dismissedIds });
    if (storage.get(BANNER_KEY) !== next) storage.set(BANNER_KEY, next);
  }, [banners, dismissedIds]);

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== BANNER_KEY) return;
      dispatch(bannerSynced(readBannerMirror()));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [dispatch]);
}

export function BannerNotice({ regions }: { regions: string[] }) {
  const dispatch = useAppDispatch();
  const userId = useAppSelector((state) => state.auth.user?._id ?? null);
  const isAuthenticated = useAppSelector((state) => state.auth.isAuthenticated);
  const [now, setNow] = useState(() => Date.now());
  const regionKey = regions.join('|');
  const viewer: BannerViewer = useMemo(() => ({ userId, regions: regionKey ? regionKey.split('|') : [] }), [userId, regionKey]);
  const banner = useAppSelector((state) => selectVisibleBanner(state, viewer, now));

  useEffect(() => {
    if (!banner || banner.sticky || !banner.expiresAt) return;
    const at = new Date(banner.expiresAt).getTime();
    if (Number.isNaN(at)) return;
    // Expiries months ahead overflow setTimeout's 32-bit delay; setTimeoutAt waits in steps.
    return setTimeoutAt(() => {
      dispatch(bannerExpired(banner._id));
      setNow(Date.now());
    }, at);
  }, [banner, dispatch]);

  // 'Banner expired.' once, whether our timer or the server's deactivation hid it first.
  const shown = useRef(banner);
  useEffect(() => {
    const previous = shown.current;
    shown.current = banner;
    if (previous && previous._id !== banner?._id && isExpired(previous, Date.now() + 1000)) {
      toast.info(BANNER_EXPIRED);
    }
  }, [banner]);

  if (!banner) return null;
  // Only http(s) addresses and paths inside the site become a link (the server checks this too).
  const link = safeHref(banner.link);
  return (
    <aside className="banner-notice" role="region" aria-label="Announcement" data-testid="banner-notice">
      <div className="banner-notice__body">
        <strong className="banner-notice__title">{banner.title}</strong>
        <span className="banner-notice__message">{banner.message}</span>
        {link ? (
          <a href={link} target="_blank" rel="noopener noreferrer" className="banner-notice__link">
            Learn more
          </a>
        ) : null}
      </div>
      <button
        type="button"
        className="button button--small"
        onClick={() => void dispatch(dismissBanner({ id: banner._id, remote: isAuthenticated }))}
      >
        Dismiss
      </button>
    </aside>
  );
}
