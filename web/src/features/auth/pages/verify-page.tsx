import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { FormError, FormField, FormStatus } from '@/components/form-field';
import { Page } from '@/components/page';
import { errorCleared, otpStatusCleared, sendVerifyOtp, verifyEmail } from '../auth-slice';
import { redirectTarget } from '../redirect';

export const OTP_LENGTH = 6;
const OTP_PATTERN = /^\d{6}$/;

/** Email verification: send a 6-digit code, then enter it. */
export default function VerifyPage() {
  const dispatch = useAppDispatch();
  const location = useLocation();
  const { user, isAccountVerified, loading, error, otpStatus } = useAppSelector((state) => state.auth);
  const [code, setCode] = useState('');
  const [sent, setSent] = useState(() => Boolean((location.state as { codeSent?: boolean } | null)?.codeSent));
  const next = redirectTarget(location);

  useEffect(() => {
    dispatch(errorCleared());
    dispatch(otpStatusCleared());
  }, [dispatch]);

  if (!user) return null;

  if (isAccountVerified) {
    return (
      <Page title="Verify your email">
        <FormStatus message={otpStatus || 'Your email is verified.'} />
        <Link to={next} className="button">
          Continue
        </Link>
      </Page>
    );
  }

  const send = async () => {
    const result = await dispatch(sendVerifyOtp({ userId: user._id }));
    if (sendVerifyOtp.fulfilled.match(result)) setSent(true);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (loading || !OTP_PATTERN.test(code)) return;
    void dispatch(verifyEmail({ userId: user._id, otp: code }));
  };

  return (
    <Page title="Verify your email">
      <p>
        {sent ? 'We sent a' : 'We will send a'} {OTP_LENGTH}-digit code to <strong>{user.email}</strong>. Enter it below to verify
        your account.
      </p>
      <div className="form-actions form-actions--start">
        <button type="button" className="button button--ghost" onClick={() => void send()} disabled={loading}>
          {sent ? 'Resend Code' : 'Send Code'}
        </button>
      </div>
      <form className="form form--narrow" onSubmit={onSubmit} aria-busy={loading}>
        <FormField
          id="otp"
          label="Verification code"
          hint={`The ${OTP_LENGTH}-digit code from the email`}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="\d{6}"
          maxLength={OTP_LENGTH}
          required
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH))}
        />
        <FormStatus message={otpStatus} />
        <FormError message={error} />
        <button type="submit" className="button" disabled={loading || !OTP_PATTERN.test(code)}>
          {loading ? 'Verifying...' : 'Verify Email'}
        </button>
      </form>
    </Page>
  );
}
