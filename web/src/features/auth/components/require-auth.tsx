import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { LoadingOverlay } from '@/components/loading-overlay';

export const ADMIN_REQUIRED = 'Admin access required';

/** Sends guests to /login and brings them back afterwards; `admin` also requires the admin role. */
export function RequireAuth({ children, admin = false }: { children: ReactNode; admin?: boolean }) {
  const { authInitialized, isAuthenticated, role, sessionCheckFailed } = useAppSelector((state) => state.auth);
  const location = useLocation();
  // While a failed session check is retried, the visitor may well be signed in: wait.
  if (!authInitialized || (!isAuthenticated && sessionCheckFailed)) return <LoadingOverlay />;
  if (!isAuthenticated) {
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  }
  if (admin && role !== 'admin') {
    return (
      <section className="page">
        <div className="error-panel" role="alert">
          <h2>{ADMIN_REQUIRED}</h2>
          <p>This page is for administrators.</p>
        </div>
      </section>
    );
  }
  return <>{children}</>;
}
