import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { CONSENT_KEY, storage } from '@/lib/storage';
import { consentChosen, selectCookieConsent } from './consent-slice';

export function CookieConsentBar() {
  const dispatch = useAppDispatch();
  const consent = useAppSelector(selectCookieConsent);
  if (consent !== null) return null;

  // Kept locally here; a signed-in user's choice is saved to the server by the app's lifecycle
  // (which also saves a guest's choice once they sign in), so it is sent once.
  const choose = (value: boolean) => {
    storage.set(CONSENT_KEY, String(value));
    dispatch(consentChosen(value));
  };

  return (
    <section className="consent-bar" aria-label="Cookie consent">
      <p>
        We use cookies to keep you signed in and to understand how Pressroom is used. Read our{' '}
        <Link to="/privacy">Privacy Policy</Link>.
      </p>
      <div className="consent-bar__actions">
        <button type="button" className="button button--ghost" onClick={() => choose(false)}>
          Decline
        </button>
        <button type="button" className="button" onClick={() => choose(true)}>
          Accept
        </button>
      </div>
    </section>
  );
}
