import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { LoadingOverlay } from '@/components/loading-overlay';
import { checkAuth } from '../auth-slice';

export const ADMIN_REQUIRED = 'Admin access required';
/** Seed 000 §4's connection text, shown where a protected page would be while the server is away. */
export const CANNOT_CONNECT = "Can't connect to server. Please try again.";

/** A session kept in this browser that the server could not check yet (it was unreachable). */
export const selectSessionUnconfirmed = (state: { auth: { isAuthenticated: boolean; sessionCheckFailed: boolean } }) =>
  !state.auth.isAuthenticated && state.auth.sessionCheckFailed;

/** Instead of an endless spinner: says the server is away, that the session is kept, and offers a retry. */
function ServerUnreachable() {
  const dispatch = useAppDispatch();
  const checking = useAppSelector((state) => state.auth.isCheckingAuth);
  return (
    <section className="page">
      <div className="error-panel" role="alert">
        <h2>{CANNOT_CONNECT}</h2>
        <p>Your session is kept in this browser; this page opens as soon as the server answers. We keep trying on our own.</p>
        <button type="button" className="button" disabled={checking} onClick={() => void dispatch(checkAuth())}>
          {checking ? 'Trying...' : 'Try again'}
        </button>
      </div>
    </section>
  );
}

/** Sends guests to /login and brings them back afterwards; `admin` also requires the admin role. */
export function RequireAuth({ children, admin = false }: { children: ReactNode; admin?: boolean }) {
  const { authInitialized, isAuthenticated, role, sessionCheckFailed } = useAppSelector((state) => state.auth);
  const location = useLocation();
  if (!authInitialized) return <LoadingOverlay />;
  // While a failed session check is retried, the visitor may well be signed in: say so, and wait.
  if (!isAuthenticated && sessionCheckFailed) return <ServerUnreachable />;
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
