import { useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { AuthCard } from '@/components/auth-card';
import { FormError, FormField } from '@/components/form-field';
import { signup } from '../auth-slice';
import { landingAfterSignIn } from '@/features/categories';
import { GoogleSignInButton } from '../components/google-sign-in-button';
import { useAuthForm } from '../use-auth-form';

export default function SignupPage() {
  const { dispatch, navigate, location, target, loading, error, redirectNow, submit, hold, release } = useAuthForm();
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  if (redirectNow) return <Navigate to={target} replace />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await submit(() =>
      dispatch(signup({ fullName: fullName.trim(), email: email.trim(), password, sendEmail: true })),
    );
    if (!result) return;
    if (signup.fulfilled.match(result)) {
      // A new account verifies its email first, then continues where it came from; one that
      // came from nowhere in particular first picks the categories it likes (/select-category).
      const next = target === '/' ? '/select-category' : target;
      if (result.payload.isAccountVerified) navigate(next, { replace: true });
      else navigate('/verify', { replace: true, state: { from: next, codeSent: true } });
    }
  };

  return (
    <AuthCard
      title="Create your account"
      footer={
        <p>
          Already have an account?{' '}
          <Link to="/login" state={location.state as unknown}>
            Login
          </Link>
        </p>
      }
    >
      <form className="form" onSubmit={(event) => void onSubmit(event)} aria-busy={loading}>
        <FormField id="fullName" label="Full name" autoComplete="name" required value={fullName} onChange={(e) => setFullName(e.target.value)} />
        <FormField id="email" label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <FormField
          id="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <FormError message={error} />
        <button type="submit" className="button button--block" disabled={loading}>
          {loading ? 'Creating account...' : 'Sign Up'}
        </button>
      </form>
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
