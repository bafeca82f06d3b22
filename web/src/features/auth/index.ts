export * from './auth-slice';
export { addAuthListeners } from './auth-listeners';
export { useSessionCheckRetry, SESSION_CHECK_RETRY_MS } from './use-session-check-retry';
export { fetchPublicConfig } from './api/auth-api';
export { GoogleSignInButton } from './components/google-sign-in-button';
export { GooglePromoCard } from './components/google-promo-card';
export { GuestSessionBanner, UnverifiedEmailBar, GUEST_SESSION_TEXT, UNVERIFIED_TEXT } from './components/session-bars';
export { RequireAuth, ADMIN_REQUIRED, CANNOT_CONNECT, selectSessionUnconfirmed } from './components/require-auth';
export { ReauthDialog, REAUTH_TITLE } from './components/reauth-dialog';
/** The passkey step-up (its library loads only when asked for). */
export const loadPasskeyStepUp = () => import('./reauth-passkey');
