/**
 * The step-up dialog: when the server asks for a recent password (403 `reauth_required`), it
 * asks for the password and, when two-factor sign-in is on, a code — or, for someone with a
 * passkey in a browser that can use it, offers "Use a passkey instead"; then the request that was
 * refused is sent again (`lib/http`). Cancelling gives the refusal back to the caller. The
 * confirmation itself (`POST /auth/reauth`) loads its endpoint when it is sent, and the passkey
 * code when the dialog opens: the dialog is part of every first load.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { loadApi } from '@/api/on-demand';
import { useAppDispatch } from '@/app/hooks';
import { FormError, FormField } from '@/components/form-field';
import { Modal } from '@/components/modal';
import { errorCode, errorMessage, setReauthHandler } from '@/lib/http';

export const REAUTH_TITLE = 'Confirm it’s you';

export function ReauthDialog() {
  const dispatch = useAppDispatch();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [canUsePasskey, setCanUsePasskey] = useState(false);
  const waiting = useRef<((ok: boolean) => void) | null>(null);

  useEffect(() => {
    setReauthHandler(
      () =>
        new Promise<boolean>((resolve) => {
          waiting.current?.(false);
          waiting.current = resolve;
          setPassword('');
          setCode('');
          setError(null);
          setCanUsePasskey(false);
          setOpen(true);
        }),
    );
    return () => setReauthHandler(null);
  }, []);

  // Whether to offer a passkey (the browser can use one and the person has one).
  useEffect(() => {
    if (!open) return;
    let current = true;
    import('../reauth-passkey')
      .then((passkey) => passkey.canConfirmWithPasskey(dispatch))
      .then((can) => current && setCanUsePasskey(can))
      // The password is asked for as before.
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [open, dispatch]);

  const finish = (ok: boolean) => {
    setOpen(false);
    const resolve = waiting.current;
    waiting.current = null;
    resolve?.(ok);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const api = await loadApi();
      await dispatch(api.endpoints.postAuthReauth.initiate({ body: { password, code: code.trim() } }, { track: false })).unwrap();
      finish(true);
    } catch (e) {
      if (errorCode(e) === 'code_required') setNeedsCode(true);
      setError(errorMessage(e, 'Could not confirm your password'));
    } finally {
      setBusy(false);
    }
  };

  const confirmWithPasskey = async () => {
    setBusy(true);
    setError(null);
    try {
      const passkey = await import('../reauth-passkey');
      const failure = await passkey.confirmWithPasskey(dispatch);
      if (failure === null) finish(true);
      else setError(failure || null);
    } catch (e) {
      setError(errorMessage(e, 'Could not confirm it’s you with a passkey'));
    } finally {
      setBusy(false);
    }
  };

  if (!open) return null;
  return (
    <Modal title={REAUTH_TITLE} labelledBy="reauth-title" onClose={() => finish(false)}>
      <form className="form" onSubmit={(event) => void submit(event)}>
        <p className="muted small">
          {canUsePasskey
            ? 'For your security, enter your password again or use a passkey to continue. It stays confirmed for 10 minutes.'
            : 'For your security, enter your password again to continue. It stays confirmed for 10 minutes.'}
        </p>
        <FormField id="reauth-password" label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        {needsCode ? (
          <FormField id="reauth-code" label="Authenticator or recovery code" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
        ) : null}
        <FormError message={error} />
        {canUsePasskey ? (
          <p className="form-aside">
            <button type="button" className="link-button" disabled={busy} onClick={() => void confirmWithPasskey()}>
              Use a passkey instead
            </button>
          </p>
        ) : null}
        <div className="form-actions">
          <button type="button" className="button button--ghost" onClick={() => finish(false)}>
            Cancel
          </button>
          <button type="submit" className="button" disabled={busy || password === ''}>
            {busy ? 'Confirming...' : 'Confirm'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
