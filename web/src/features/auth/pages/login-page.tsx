import { useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { AuthCard } from '@/components/auth-card';
import { FormError, FormField } from '@/components/form-field';
import { useAppSelector } from '@/app/hooks';
import { login, twoFactorCancelled, verifyTwoFactor } from '../auth-slice';
import { landingAfterSignIn } from '@/features/categories';
import { GoogleSignInButton } from '../components/google-sign-in-button';
import { useAuthForm } from '../use-auth-form';
import { usePasskeySignIn } from '../use-passkey-sign-in';

export default function LoginPage() {
  const { dispatch, navigate, location, target, loading, error, redirectNow, submit, hold, release } = useAuthForm();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const challenge = useAppSelector((state) => state.auth.twoFactorChallenge);
  const passkey = usePasskeySignIn({ verify: submit, signedIn: () => navigate(target, { replace: true }) });

  if (redirectNow) return <Navigate to={target} replace />;

  if (challenge) {
    const onVerify = async (event: FormEvent) => {
      event.preventDefault();
      const result = await submit(() => dispatch(verifyTwoFactor({ challenge, code: code.trim() })));
      if (result && verifyTwoFactor.fulfilled.match(result)) navigate(target, { replace: true });
    };
    return (
      <AuthCard title="Two-factor sign-in">
        <form className="form" onSubmit={(event) => void onVerify(event)} aria-busy={loading}>
          <p className="muted">Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
          <FormField
            id="two-factor-code"
            label="Code"
            autoComplete="one-time-code"
            inputMode="text"
            required
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <FormError message={error} />
          <button type="submit" className="button button--block" disabled={loading || code.trim() === ''}>
            {loading ? 'Checking...' : 'Verify'}
          </button>
          <p className="form-aside">
            <button type="button" className="link-button" onClick={() => { setCode(''); dispatch(twoFactorCancelled()); }}>
              Back to log in
            </button>
          </p>
        </form>
      </AuthCard>
    );
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await submit(() => dispatch(login({ email: email.trim(), password })));
    if (result && login.fulfilled.match(result) && !('twoFactorChallenge' in result.payload)) navigate(target, { replace: true });
  };

  return (
    <AuthCard
      title="Log in"
      footer={
        <p>
          New to Pressroom?{' '}
          <Link to="/signup" state={location.state as unknown}>
            Sign Up
          </Link>
        </p>
      }
    >
      <form className="form" onSubmit={(event) => void onSubmit(event)} aria-busy={loading} noValidate={false}>
        {/* "webauthn": the browser may offer this site's passkeys among the suggestions. */}
        <FormField id="email" label="Email" type="email" autoComplete="username webauthn" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <FormField
          id="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <FormError message={error} />
        <button type="submit" className="button button--block" disabled={loading}>
          {loading ? 'Logging in...' : 'Log in'}
        </button>
        <p className="form-aside">
          <Link to="/reset-password">Forgot password?</Link>
        </p>
      </form>
      {passkey.supported ? (
        <div className="passkey-signin">
          <div className="divider">
            <span>or</span>
          </div>
          <button type="button" className="button button--ghost button--block" disabled={loading || passkey.waiting} onClick={() => void passkey.start()}>
            {passkey.waiting ? 'Waiting for your passkey...' : 'Sign in with a passkey'}
          </button>
          <p className="muted small passkey-signin__status" role="status">
            {passkey.waiting ? 'Follow your browser’s prompt to choose a passkey.' : ''}
          </p>
          <FormError message={passkey.error} />
        </div>
      ) : null}
      <GoogleSignInButton
        onStart={hold}
        onFailure={release}
        onSuccess={() =>
          void landingAfterSignIn(dispatch, target).then((to) => {
            release();
            navigate(to, { replace: true });
          })
        }
      />
    </AuthCard>
  );
}
