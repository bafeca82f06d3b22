import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { AuthCard } from '@/components/auth-card';
import { FormError, FormField, FormStatus } from '@/components/form-field';
import { errorCleared, otpStatusCleared, resetPassword, sendResetOtp, verifyResetOtp } from '../auth-slice';

type Step = 'email' | 'code' | 'password' | 'done';
export const PASSWORDS_DIFFER = 'Passwords do not match';

/** Email → 6-digit code → new password. */
export default function ResetPasswordPage() {
  const dispatch = useAppDispatch();
  const { loading, error, otpStatus } = useAppSelector((state) => state.auth);
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState('');
  const [otp, setOtp] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);

  useEffect(() => {
    dispatch(errorCleared());
    dispatch(otpStatusCleared());
  }, [dispatch]);

  const submitEmail = async (event: FormEvent) => {
    event.preventDefault();
    if (loading) return;
    const result = await dispatch(sendResetOtp({ email: email.trim() }));
    if (sendResetOtp.fulfilled.match(result)) setStep('code');
  };
  const submitCode = async (event: FormEvent) => {
    event.preventDefault();
    if (loading || !/^\d{6}$/.test(otp)) return;
    const result = await dispatch(verifyResetOtp({ email: email.trim(), otp }));
    if (verifyResetOtp.fulfilled.match(result)) setStep('password');
  };
  const submitPassword = async (event: FormEvent) => {
    event.preventDefault();
    if (loading) return;
    if (password !== confirm) {
      setLocalError(PASSWORDS_DIFFER);
      return;
    }
    setLocalError(null);
    const result = await dispatch(resetPassword({ email: email.trim(), otp, newPassword: password }));
    if (resetPassword.fulfilled.match(result)) setStep('done');
  };

  return (
    <AuthCard title="Reset your password" footer={<Link to="/login">Back to login</Link>}>
      {step === 'email' ? (
        <form className="form" onSubmit={(event) => void submitEmail(event)} aria-busy={loading}>
          <p>Enter the email of your account and we will send you a 6-digit code.</p>
          <FormField id="email" label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <FormError message={error} />
          <button type="submit" className="button button--block" disabled={loading}>
            {loading ? 'Sending...' : 'Send Code'}
          </button>
        </form>
      ) : null}
      {step === 'code' ? (
        <form className="form" onSubmit={(event) => void submitCode(event)} aria-busy={loading}>
          <FormStatus message={otpStatus} />
          <FormField
            id="otp"
            label="Verification code"
            hint={`Sent to ${email}`}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="\d{6}"
            maxLength={6}
            required
            value={otp}
            onChange={(e) => setOtp(e.target.value.replace(/\D/g, '').slice(0, 6))}
          />
          <FormError message={error} />
          <button type="submit" className="button button--block" disabled={loading || otp.length !== 6}>
            {loading ? 'Checking...' : 'Verify Code'}
          </button>
          <button type="button" className="link-button" onClick={() => setStep('email')}>
            Use another email
          </button>
        </form>
      ) : null}
      {step === 'password' ? (
        <form className="form" onSubmit={(event) => void submitPassword(event)} aria-busy={loading}>
          <FormStatus message={otpStatus} />
          <FormField id="newPassword" label="New password" type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
          <FormField id="confirmPassword" label="Confirm new password" type="password" autoComplete="new-password" required value={confirm} onChange={(e) => setConfirm(e.target.value)} />
          <FormError message={localError ?? error} />
          <button type="submit" className="button button--block" disabled={loading}>
            {loading ? 'Saving...' : 'Reset Password'}
          </button>
        </form>
      ) : null}
      {step === 'done' ? (
        <div className="form">
          <FormStatus message={otpStatus || 'Your password has been reset.'} />
          <Link to="/login" className="button button--block">
            Log in
          </Link>
        </div>
      ) : null}
    </AuthCard>
  );
}
