import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { AuthCard } from '@/components/auth-card';
import { FormError, FormField } from '@/components/form-field';
import { errorCleared, signup } from '../auth-slice';
import { GoogleSignInButton } from '../components/google-sign-in-button';
import { redirectTarget } from '../redirect';

export default function SignupPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const { isAuthenticated, loading, error } = useAppSelector((state) => state.auth);
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const target = redirectTarget(location);
  const submitting = useRef(false);

  useEffect(() => {
    dispatch(errorCleared());
  }, [dispatch]);

  if (isAuthenticated && !submitting.current) return <Navigate to={target} replace />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (loading) return;
    submitting.current = true;
    const result = await dispatch(signup({ fullName: fullName.trim(), email: email.trim(), password, sendEmail: true }));
    submitting.current = false;
    if (signup.fulfilled.match(result)) {
      // A new account verifies its email first, then continues where it came from.
      if (result.payload.isAccountVerified) navigate(target, { replace: true });
      else navigate('/verify', { replace: true, state: { from: target, codeSent: true } });
    }
  };

  return (
    <AuthCard
      title="Create your account"
      footer={
        <p>
          Already have an account?{' '}
          <Link to="/login" state={location.state}>
            Login
          </Link>
        </p>
      }
    >
      <form className="form" onSubmit={onSubmit} aria-busy={loading}>
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
      <GoogleSignInButton onSuccess={() => navigate(target, { replace: true })} />
    </AuthCard>
  );
}
