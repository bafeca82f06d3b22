import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { ErrorBoundary } from '@/components/error-boundary';
import { LoadingOverlay } from '@/components/loading-overlay';

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
        <Outlet />
      </Suspense>
    </ErrorBoundary>
  );
}
