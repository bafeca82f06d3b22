import { GoogleSignInButton, useGoogleClientId } from './google-sign-in-button';

/** The promotion card (google-promo-card.tsx decides when): nothing when Google sign-in is not configured. */
export default function GooglePromoBody({ onClose }: { onClose: () => void }) {
  const clientId = useGoogleClientId();
  if (!clientId) return null;
  return (
    <aside className="promo-card" aria-labelledby="google-promo-title">
      <button type="button" className="icon-button promo-card__close" aria-label="Close" onClick={onClose}>
        ×
      </button>
      <h2 id="google-promo-title">Sign in with Google</h2>
      <p>Follow authors, save bookmarks and get notified about new posts — one click, no new password.</p>
      <GoogleSignInButton onSuccess={onClose} />
    </aside>
  );
}
