import { useState, type FormEvent } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { sendAppeal } from '../posts-slice';
import { POST_FALLBACK } from '../posts-state';

export const APPEAL_MAX = 2000;

/** The author of a blocked post asks an administrator to lift the block. */
export function AppealForm({ postId }: { postId: string }) {
  const dispatch = useAppDispatch();
  const [message, setMessage] = useState('');
  const [state, setState] = useState<{ sending: boolean; sent: string | null; error: string | null }>({ sending: false, sent: null, error: null });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const text = message.trim();
    if (!text) return;
    setState({ sending: true, sent: null, error: null });
    const result = await dispatch(sendAppeal({ postId, message: text }));
    if (sendAppeal.fulfilled.match(result)) setState({ sending: false, sent: result.payload, error: null });
    else setState({ sending: false, sent: null, error: result.payload ?? POST_FALLBACK.appeal });
  };
  if (state.sent) {
    return (
      <p className="form-status" role="status">
        Your appeal was sent to the administrators.
      </p>
    );
  }
  return (
    <form className="form appeal-form" onSubmit={(e) => void submit(e)}>
      <label htmlFor="appeal-message">Appeal the block</label>
      <textarea id="appeal-message" rows={3} maxLength={APPEAL_MAX} value={message} onChange={(e) => setMessage(e.target.value)} />
      {state.error ? (
        <p className="form-error" role="alert">
          {state.error}
        </p>
      ) : null}
      <div className="form-actions form-actions--start">
        <button type="submit" className="button button--small" disabled={state.sending || !message.trim()}>
          {state.sending ? 'Sending...' : 'Appeal'}
        </button>
      </div>
    </form>
  );
}
