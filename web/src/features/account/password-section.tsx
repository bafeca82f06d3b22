/**
 * "Change password" on the settings page: the current password (or, for someone with a passkey,
 * the passkey in its place) and the new one twice. Every other session ends; this one carries on
 * with the new token (`changePassword`).
 */
import { useState, type FormEvent } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { toast } from '@/lib/toast';
import { changePassword } from '@/features/auth';
import { PasskeyInsteadToggle, PasskeyPromptStatus, usePasskeyInstead } from './passkey-instead';

export const PASSWORD_MIN = 8;
export const PASSWORD_CHANGED = 'Password changed. Your other sessions have been logged out.';

export function PasswordSection() {
  const dispatch = useAppDispatch();
  const [form, setForm] = useState({ current: '', next: '', confirm: '' });
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const passkey = usePasskeyInstead();
  const mismatch = form.confirm !== '' && form.next !== form.confirm;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setOutcome(null);
    if (form.next.length < PASSWORD_MIN) {
      setOutcome({ ok: false, text: `Password must be at least ${PASSWORD_MIN} characters` });
      return;
    }
    if (mismatch) return;
    setBusy(true);
    let payload: Parameters<typeof changePassword>[0];
    if (passkey.using) {
      const answer = await passkey.prove();
      if ('error' in answer) {
        setBusy(false);
        if (answer.error) setOutcome({ ok: false, text: answer.error });
        return;
      }
      payload = { newPassword: form.next, passkey: answer.proof };
    } else payload = { currentPassword: form.current, newPassword: form.next };
    const result = await dispatch(changePassword(payload));
    setBusy(false);
    if (changePassword.fulfilled.match(result)) {
      setForm({ current: '', next: '', confirm: '' });
      passkey.choose(false);
      setOutcome({ ok: true, text: PASSWORD_CHANGED });
      toast.success(PASSWORD_CHANGED);
    } else setOutcome({ ok: false, text: result.payload ?? 'Failed to change password' });
  };

  const input = (key: 'current' | 'next' | 'confirm', label: string, autoComplete: string, extra: Record<string, unknown> = {}) => (
    <div className="field">
      <label htmlFor={`password-${key}`}>{label}</label>
      <input id={`password-${key}`} type="password" autoComplete={autoComplete} required value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} {...extra} />
    </div>
  );

  return (
    <form className="form form--narrow" onSubmit={(e) => void submit(e)} aria-label="Change password">
      {passkey.using ? (
        <p id="password-passkey-note" className="muted small">
          Your browser will ask for your passkey in place of your current password.
        </p>
      ) : (
        input('current', 'Current password', 'current-password')
      )}
      <PasskeyInsteadToggle passkey={passkey} disabled={busy} />
      {input('next', 'New password', 'new-password', { minLength: PASSWORD_MIN, 'aria-describedby': 'password-next-hint' })}
      <small id="password-next-hint" className="muted">
        At least {PASSWORD_MIN} characters. Your other sessions are logged out.
      </small>
      {input('confirm', 'Confirm new password', 'new-password', { 'aria-invalid': mismatch })}
      {mismatch ? (
        <p className="form-error" role="alert">
          Passwords do not match
        </p>
      ) : null}
      {outcome ? (
        <p className={outcome.ok ? 'form-status' : 'form-error'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.text}
        </p>
      ) : null}
      <PasskeyPromptStatus passkey={passkey} />
      <div className="form-actions form-actions--start">
        <button type="submit" className="button" disabled={busy} aria-describedby={passkey.using ? 'password-passkey-note' : undefined}>
          {busy ? 'Changing...' : 'Change password'}
        </button>
      </div>
    </form>
  );
}
