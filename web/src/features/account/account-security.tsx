/**
 * The account's own security on the settings page: where it is signed in (each session with
 * "Sign out") and two-factor sign-in (setup with a QR code and the secret as text, recovery
 * codes shown once, turning it off, new recovery codes: with the password and a code, or a passkey).
 */
import { useEffect, useState, type FormEvent } from 'react';
import QRCode from 'qrcode';
import { useLocation } from 'react-router-dom';
import {
  api,
  useDeleteAuthSessionsByIdMutation,
  useGetAuth2FaQuery,
  useLazyGetAuthSessionsQuery,
  usePostAuth2FaDisableMutation,
  usePostAuth2FaEnableMutation,
  usePostAuth2FaRecoveryCodesMutation,
  usePostAuth2FaSetupMutation,
  type SessionItem,
} from '@/api/endpoints';
import { useAppDispatch } from '@/app/hooks';
import { FormError, FormField } from '@/components/form-field';
import { formatDate } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { PasskeyInsteadToggle, PasskeyPromptStatus, usePasskeyInstead } from './passkey-instead';

function place(s: SessionItem): string {
  const parts = [s.city, s.country].filter((p) => p && p !== 'Unknown');
  return parts.length ? parts.join(', ') : 'Unknown place';
}

/** The signed-in sessions, newest first, each but this one with "Sign out". */
export function SessionList() {
  const dispatch = useAppDispatch();
  const [load, { data, error }] = useLazyGetAuthSessionsQuery();
  const [endSession] = useDeleteAuthSessionsByIdMutation();
  const [ending, setEnding] = useState<string | null>(null);

  // Read again whenever the page is opened at #sessions (a link from the new-sign-in email, or
  // the section link while the settings page is already open), so the list is never stale.
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === '' || hash === '#sessions') void load();
  }, [load, hash]);

  const end = async (s: SessionItem) => {
    setEnding(s.id);
    try {
      await endSession({ id: s.id }).unwrap();
      toast.success(`Signed out of ${s.device}.`);
      dispatch(api.util.updateQueryData('getAuthSessions', undefined, (draft) => void (draft.sessions = draft.sessions.filter((x) => x.id !== s.id))));
    } catch (e) {
      toast.error(errorMessage(e, 'Could not sign out that session'));
    } finally {
      setEnding(null);
    }
  };

  const sessions = data?.sessions;
  if (error) return <p className="form-error" role="alert">{errorMessage(error, 'Could not load your sessions')} <button type="button" className="link-button" onClick={() => void load()}>Try again</button></p>;
  if (!sessions) return <p className="muted small" role="status">Loading your sessions...</p>;
  if (sessions.length === 0) return <p className="muted small">No other sessions.</p>;
  return (
    <ul className="session-list" aria-label="Signed-in sessions">
      {sessions.map((s) => (
        <li key={s.id} className="session-item" data-session-id={s.id}>
          <div>
            <strong>{s.device}</strong>
            {s.current ? <span className="session-current">This device</span> : null}
            <p className="muted small">
              {place(s)}
              {s.ip ? ` · ${s.ip}` : ''} · signed in {formatDate(s.createdAt)} · last active {formatDate(s.lastSeenAt)}
            </p>
          </div>
          {s.current ? null : (
            <button type="button" className="button button--ghost" disabled={ending === s.id} onClick={() => void end(s)} aria-label={`Sign out ${s.device}, signed in ${formatDate(s.createdAt)}`}>
              {ending === s.id ? 'Signing out...' : 'Sign out'}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="recovery-codes" role="region" aria-label="Recovery codes">
      <p>
        <strong>Save these recovery codes now.</strong> Each one signs you in once if you lose your authenticator app. They will not be shown
        again.
      </p>
      <ul className="code-list" data-testid="recovery-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div className="form-actions">
        <button type="button" className="button button--ghost" onClick={() => void navigator.clipboard?.writeText(codes.join('\n'))}>
          Copy codes
        </button>
        <button type="button" className="button" onClick={onDone}>
          I saved them
        </button>
      </div>
    </div>
  );
}

/**
 * Two-factor sign-in: off → setup (QR code and secret) → code → recovery codes; on → off or new
 * codes, confirmed with the password and a code or (for someone with one) a passkey.
 */
export function TwoFactorSection() {
  const { data: status, error: loadError, refetch } = useGetAuth2FaQuery();
  const [startSetup] = usePostAuth2FaSetupMutation();
  const [turnOn] = usePostAuth2FaEnableMutation();
  const [turnOff] = usePostAuth2FaDisableMutation();
  const [newCodes] = usePostAuth2FaRecoveryCodesMutation();
  const [setup, setSetup] = useState<{ secret: string; otpauthUrl: string; qr: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [actionError, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const error = actionError ?? (loadError ? errorMessage(loadError, 'Could not load two-factor settings') : null);
  const passkey = usePasskeyInstead({ skip: !status?.enabled });

  const run = async (what: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await what();
    } catch (e) {
      setError(errorMessage(e, 'Something went wrong'));
    } finally {
      setBusy(false);
    }
  };

  const start = () =>
    run(async () => {
      const r = await startSetup().unwrap();
      const qr = await QRCode.toDataURL(r.otpauthUrl, { margin: 1, width: 200 });
      setSetup({ ...r, qr });
      setCode('');
    });

  const enable = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const r = await turnOn({ body: { code: code.trim() } }).unwrap();
      setSetup(null);
      setCode('');
      setCodes(r.recoveryCodes);
      toast.success('Two-factor sign-in is on.');
      await refetch();
    });
  };

  const change = (kind: 'disable' | 'recovery-codes') => (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      let body;
      if (passkey.using) {
        const answer = await passkey.prove();
        if ('error' in answer) {
          setError(answer.error || null);
          return;
        }
        body = { passkey: answer.proof };
      } else body = { password, code: code.trim() };
      const recoveryCodes = kind === 'disable' ? (await turnOff({ body }).unwrap(), null) : (await newCodes({ body }).unwrap()).recoveryCodes;
      setPassword('');
      setCode('');
      passkey.choose(false);
      if (kind === 'disable') toast.success('Two-factor sign-in is off.');
      else setCodes(recoveryCodes);
      await refetch();
    });
  };

  if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  if (!status) return error ? <FormError message={error} /> : <p className="muted small" role="status">Loading...</p>;

  if (!status.enabled) {
    if (!setup)
      return (
        <div>
          <p className="muted small">Protect your account with a code from an authenticator app (such as Google Authenticator, 1Password or Aegis) each time you sign in.</p>
          <FormError message={error} />
          <button type="button" className="button" disabled={busy} onClick={() => void start()}>
            Set up two-factor sign-in
          </button>
        </div>
      );
    return (
      <form className="form" onSubmit={enable}>
        <p>Scan this QR code with your authenticator app, or type the key below into it. Then enter the 6-digit code it shows.</p>
        <img src={setup.qr} alt="QR code for your authenticator app" width={200} height={200} />
        <p>
          Key: <code data-testid="totp-secret">{setup.secret}</code>
        </p>
        <FormField id="totp-code" label="6-digit code" inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
        <FormError message={error} />
        <div className="form-actions">
          <button type="button" className="button button--ghost" onClick={() => setSetup(null)}>
            Cancel
          </button>
          <button type="submit" className="button" disabled={busy || code.trim() === ''}>
            Turn on
          </button>
        </div>
      </form>
    );
  }

  return (
    <div>
      <p>
        Two-factor sign-in is <strong>on</strong>. {status.recoveryCodesLeft} recovery code{status.recoveryCodesLeft === 1 ? '' : 's'} left.
      </p>
      <form className="form">
        {passkey.using ? (
          <p id="tf-passkey-note" className="muted small">
            Your browser will ask for your passkey in place of your password and code.
          </p>
        ) : (
          <>
            <FormField id="tf-password" label="Password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            <FormField id="tf-code" label="Authenticator or recovery code" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />
          </>
        )}
        <FormError message={error} />
        <PasskeyPromptStatus passkey={passkey} />
        <PasskeyInsteadToggle passkey={passkey} disabled={busy} />
        <div className="form-actions">
          <button type="submit" className="button button--ghost" disabled={busy} aria-describedby={passkey.using ? 'tf-passkey-note' : undefined} onClick={change('recovery-codes')}>
            New recovery codes
          </button>
          <button type="submit" className="button button--danger" disabled={busy} aria-describedby={passkey.using ? 'tf-passkey-note' : undefined} onClick={change('disable')}>
            Turn off
          </button>
        </div>
      </form>
    </div>
  );
}
