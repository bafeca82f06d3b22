import { Link, useLocation } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';

export const GUEST_SESSION_TEXT = 'Viewing as guest. Log in for full features.';
export const UNVERIFIED_TEXT = 'Your email is not verified. Please verify your account to continue enjoying all features.';

/** Shown when the stored session has expired. */
export function GuestSessionBanner() {
  const { sessionExpired, isAuthenticated } = useAppSelector((state) => state.auth);
  const location = useLocation();
  if (!sessionExpired || isAuthenticated) return null;
  return (
    <div className="info-bar" role="status">
      <span>{GUEST_SESSION_TEXT}</span>
      <Link to="/login" state={{ from: location.pathname + location.search }} className="button button--small">
        Log in
      </Link>
    </div>
  );
}

/** The yellow bar for signed-in users whose email is not verified. */
export function UnverifiedEmailBar() {
  const { isAuthenticated, isAccountVerified } = useAppSelector((state) => state.auth);
  const location = useLocation();
  if (!isAuthenticated || isAccountVerified || location.pathname === '/verify') return null;
  return (
    <div className="warning-bar" role="status" data-testid="unverified-bar">
      <span>{UNVERIFIED_TEXT}</span>
      <Link to="/verify" className="button button--small button--dark">
        Verify Now
      </Link>
    </div>
  );
}
