import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppDispatch } from '@/app/hooks';
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  cancelPasskeyCeremony,
  getPasskey,
  isCeremonyCancelled,
  isCeremonyRefused,
  PASSKEY_TEXT,
  passkeyErrorMessage,
} from '@/lib/webauthn';
import { authApi, FALLBACK } from './api/auth-api';
import { errorCleared, loginWithPasskey } from './auth-slice';

/**
 * Signing in with a passkey on the login page, two ways: the browser offers the site's passkeys
 * among the email field's suggestions from the start (conditional mediation, where the browser
 * can), and "Sign in with a passkey" asks at once (which cancels the waiting suggestion).
 * `verify` sends the browser's answer (the page's submit wrapper, so it decides where to go);
 * `signedIn` is told when it succeeded. A refusal of the button's prompt is shown; a refusal of
 * the suggestion is not (the person never asked), but the server's refusal of either is (the slice's error).
 */
export function usePasskeySignIn({
  verify,
  signedIn,
}: {
  verify: (run: () => Promise<unknown>) => Promise<unknown>;
  signedIn: () => void;
}) {
  const dispatch = useAppDispatch();
  const [supported] = useState(() => browserSupportsWebAuthn());
  const [waiting, setWaiting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Bumped after the button's attempt, so the email field offers passkeys again.
  const [round, setRound] = useState(0);
  const alive = useRef(true);
  const verifyRef = useRef(verify);
  verifyRef.current = verify;
  const signedInRef = useRef(signedIn);
  signedInRef.current = signedIn;

  /** Sends the browser's answer; whether it signed in. */
  const finish = useCallback(
    async (answer: Awaited<ReturnType<typeof getPasskey>>) => {
      const result = await verifyRef.current(() => dispatch(loginWithPasskey(answer)));
      const ok = Boolean(result && loginWithPasskey.fulfilled.match(result));
      if (ok && alive.current) signedInRef.current();
      return ok;
    },
    [dispatch],
  );

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      cancelPasskeyCeremony();
    };
  }, []);

  useEffect(() => {
    if (!supported) return;
    let current = true;
    void (async () => {
      try {
        if (!(await browserSupportsWebAuthnAutofill()) || !current) return;
        const options = await authApi.passkeyLoginOptions();
        if (!current) return;
        const answer = await getPasskey(options, { autofill: true });
        if (current) await finish(answer);
      } catch (e) {
        // Cancelled by the button or by leaving, refused in the browser, or no challenge to be
        // had: the password form and the button are still there.
        if (!isCeremonyCancelled(e) && !isCeremonyRefused(e)) console.warn('Passkey autofill is unavailable', e);
      }
    })();
    return () => {
      current = false;
    };
  }, [supported, round, finish]);

  const start = async () => {
    setError(null);
    dispatch(errorCleared());
    setWaiting(true);
    let ok = false;
    try {
      const options = await authApi.passkeyLoginOptions();
      const answer = await getPasskey(options);
      if (!alive.current) return;
      setWaiting(false);
      ok = await finish(answer);
    } catch (e) {
      if (alive.current && !isCeremonyCancelled(e)) setError(passkeyErrorMessage(e, PASSKEY_TEXT.signInCancelled, FALLBACK.passkeyLogin));
    } finally {
      if (alive.current && !ok) {
        setWaiting(false);
        setRound((n) => n + 1);
      }
    }
  };

  return { supported, waiting, error, start };
}
