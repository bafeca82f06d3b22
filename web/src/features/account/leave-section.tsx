/**
 * "Delete my account" on the settings page: what happens, the password, and the request. The
 * account goes after a grace period; signing in before then keeps it.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { FormError, FormField } from '@/components/form-field';
import { Modal } from '@/components/modal';
import { toast } from '@/lib/toast';
import { deleteAccount, fetchPublicConfig, loadPasskeyStepUp } from '@/features/auth';

/** A grace period in words: "14 days", "1 day", "2 hours", "30 seconds". */
export function graceInWords(seconds: number): string {
  const units: Array<[number, string]> = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  for (const [size, name] of units) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${name}${n === 1 ? '' : 's'}`;
    }
  }
  return `${Math.max(seconds, 0)} seconds`;
}

/** The configured grace period (`GET /api/config/public`), null until known. */
function useGracePeriod(): string | null {
  const [grace, setGrace] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    void fetchPublicConfig().then((config) => {
      if (alive && config.accountDeletionGraceSeconds !== null) setGrace(graceInWords(config.accountDeletionGraceSeconds));
    });
    return () => {
      alive = false;
    };
  }, []);
  return grace;
}

export function DeleteAccountSection() {
  const grace = useGracePeriod();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const [canPasskey, setCanPasskey] = useState(false);
  useEffect(() => {
    if (!open) return;
    let alive = true;
    void loadPasskeyStepUp()
      .then((m) => m.canConfirmWithPasskey(dispatch))
      .then((can) => {
        if (alive) setCanPasskey(can);
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [open, dispatch]);

  const withPasskey = async () => {
    setBusy(true);
    setError(null);
    const { passkeyProof } = await loadPasskeyStepUp();
    const answer = await passkeyProof(dispatch);
    if ('error' in answer) {
      setBusy(false);
      setError(answer.error || null);
      return;
    }
    await send({ passkey: answer.proof });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    await send({ password });
  };

  const send = async (confirmation: Parameters<typeof deleteAccount>[0]) => {
    const result = await dispatch(deleteAccount(confirmation));
    setBusy(false);
    if (deleteAccount.fulfilled.match(result)) {
      const when = new Date(result.payload).toLocaleString();
      setOpen(false);
      toast.success(`Your account will be deleted on ${when}. Sign in before then to keep it.`);
      navigate('/login');
    } else {
      setError(result.payload ?? 'Could not delete your account');
    }
  };

  return (
    <div>
      <p>Deleting your account:</p>
      <ul className="danger-list">
        <li>signs you out everywhere at once;</li>
        <li>after {grace ?? 'a grace period'} removes your profile, posts, comments, likes, bookmarks, follows and notifications;</li>
        <li>ends the subscriptions to you, refunds your subscribers as our terms say, and pays out or holds your pending earnings as documented;</li>
        <li>keeps payment records the law requires, without your name.</li>
      </ul>
      <p className="muted small">Changed your mind? Sign in within {grace ?? 'the grace period'} and nothing is deleted. Download your data first if you want a copy.</p>
      <button type="button" className="button button--danger" onClick={() => setOpen(true)}>
        Delete my account
      </button>
      {open ? (
        <Modal title="Delete your account?" labelledBy="delete-account-title" onClose={() => setOpen(false)}>
          <form className="form" onSubmit={(event) => void submit(event)}>
            <p>Enter your password to confirm. You will be signed out everywhere.</p>
            <FormField id="delete-password" label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
            <FormError message={error} />
            <div className="form-actions">
              <button type="button" className="button button--ghost" onClick={() => setOpen(false)}>
                Cancel
              </button>
              {canPasskey ? (
                <button type="button" className="button button--ghost" disabled={busy} onClick={() => void withPasskey()}>
                  Use a passkey instead
                </button>
              ) : null}
              <button type="submit" className="button button--danger" disabled={busy || password === ''}>
                {busy ? 'Deleting...' : 'Delete my account'}
              </button>
            </div>
          </form>
        </Modal>
      ) : null}
    </div>
  );
}
