import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { AuthCard } from '@/components/auth-card';
import { FormError, FormField } from '@/components/form-field';
import { errorCleared, login } from '../auth-slice';
import { GoogleSignInButton } from '../components/google-sign-in-button';
import { redirectTarget } from '../redirect';

export default function LoginPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const { isAuthenticated, loading, error } = useAppSelector((state) => state.auth);
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
    const result = await dispatch(login({ email: email.trim(), password }));
    submitting.current = false;
    if (login.fulfilled.match(result)) navigate(target, { replace: true });
  };

  return (
    <AuthCard
      title="Log in"
      footer={
        <p>
          New to Pressroom?{' '}
          <Link to="/signup" state={location.state}>
            Sign Up
          </Link>
        </p>
      }
    >
      <form className="form" onSubmit={onSubmit} aria-busy={loading} noValidate={false}>
        <FormField id="email" label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
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
      <GoogleSignInButton onSuccess={() => navigate(target, { replace: true })} />
    </AuthCard>
  );
}
