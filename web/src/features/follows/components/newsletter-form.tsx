/**
 * For guests: get an author's new posts by email (`POST /api/newsletter/{authorId}/subscribe`).
 * The server sends a confirmation link (double opt-in) and answers the same whatever the address,
 * so the form only ever says to check the inbox. It is on the post and author pages a reader
 * opens first: the endpoint loads when the form is sent (api/on-demand.ts).
 */
import { useId, useState, type FormEvent } from 'react';
import { loadApi } from '@/api/on-demand';
import { useAppDispatch } from '@/app/hooks';
import { errorMessage } from '@/lib/http';

export const NEWSLETTER_FALLBACK = 'Failed to subscribe';

export function NewsletterForm({ authorId, authorName }: { authorId: string; authorName: string }) {
  const dispatch = useAppDispatch();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const id = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      const api = await loadApi();
      const r = await dispatch(api.endpoints.postNewsletterByAuthorIdSubscribe.initiate({ authorId, body: { email: email.trim() } }, { track: false })).unwrap();
      setOutcome({ ok: true, text: r.message ?? 'Check your inbox to confirm.' });
      setEmail('');
    } catch (e) {
      setOutcome({ ok: false, text: errorMessage(e, NEWSLETTER_FALLBACK) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="newsletter-form panel" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`} data-testid="newsletter-form">
      <h2 id={`${id}-title`} className="section-title">
        Get new posts from {authorName} by email
      </h2>
      <div className="newsletter-form__row">
        <label htmlFor={`${id}-email`} className="visually-hidden">
          Your email address
        </label>
        <input
          id={`${id}-email`}
          type="email"
          required
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <button type="submit" className="button" disabled={busy || email.trim() === ''}>
          {busy ? 'Subscribing...' : 'Subscribe'}
        </button>
      </div>
      <p className="muted small">We send a link to confirm first. Every email has a one-click unsubscribe link.</p>
      {outcome ? (
        <p className={outcome.ok ? 'form-status' : 'form-error'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.text}
        </p>
      ) : null}
    </form>
  );
}
