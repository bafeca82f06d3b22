import { useState, type FormEvent } from 'react';
import { usePostAdminContactMutation } from '@/api/endpoints';
import { useAppSelector } from '@/app/hooks';
import { FormError, FormField, FormStatus } from '@/components/form-field';
import { Page } from '@/components/page';
import { errorMessage } from '@/lib/http';

export const CONTACT_FAILED = 'Failed to create contact message';

export default function ContactPage() {
  const user = useAppSelector((state) => state.auth.user);
  const [name, setName] = useState(user?.name ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [send] = usePostAdminContactMutation();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      const r = await send({ body: { name, email, subject, message } }).unwrap();
      setStatus(r.message || 'Thanks! Your message has been sent.');
      setSubject('');
      setMessage('');
    } catch (e) {
      setError(errorMessage(e, CONTACT_FAILED));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title="Contact us">
      <form className="form form--narrow" onSubmit={(event) => void onSubmit(event)} aria-busy={busy}>
        <FormField id="contact-name" label="Name" required value={name} onChange={(e) => setName(e.target.value)} />
        <FormField id="contact-email" label="Email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <FormField id="contact-subject" label="Subject" required value={subject} onChange={(e) => setSubject(e.target.value)} />
        <div className="field">
          <label htmlFor="contact-message">Message</label>
          <textarea id="contact-message" rows={5} required value={message} onChange={(e) => setMessage(e.target.value)} />
        </div>
        <FormStatus message={status} />
        <FormError message={error} />
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Sending...' : 'Send message'}
        </button>
      </form>
    </Page>
  );
}
