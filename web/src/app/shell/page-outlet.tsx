import { lazy, Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { ErrorBoundary } from '@/components/error-boundary';
import { LoadingOverlay } from '@/components/loading-overlay';
import { loadOfflineOutlet, servedOffline } from '@/features/offline/lazy';

/** A page the service worker served offline: the saved posts, or the post when it is one of them. */
const OfflineOutlet = lazy(loadOfflineOutlet);
const OFFLINE = servedOffline();

/** Where route pages render: a loading overlay while a page module loads, and the error boundary. */
export function PageOutlet() {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary resetKey={pathname}>
      <Suspense
        fallback={
          <>
            {/* Holds the page's place, so the footer stays out of view until the page is there. */}
            <div className="page-placeholder" aria-hidden="true" />
            <LoadingOverlay />
          </>
        }
      >
        {OFFLINE ? <OfflineOutlet /> : <Outlet />}
      </Suspense>
    </ErrorBoundary>
  );
}
