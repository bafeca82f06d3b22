import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { errorCleared } from './auth-slice';
import { redirectTarget } from './redirect';

/**
 * What the login and signup forms share: the page to go back to, the auth state with the
 * previous page's error cleared, and a submit wrapper. A signed-in visitor is sent on to the
 * target (`redirectNow`), except while a submission of this form is in flight: that one
 * decides where to go itself (signup may go to /verify first).
 */
export function useAuthForm() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const { isAuthenticated, loading, error } = useAppSelector((state) => state.auth);
  const target = redirectTarget(location);
  const submitting = useRef(false);

  useEffect(() => {
    dispatch(errorCleared());
  }, [dispatch]);

  /** Runs one submission unless one is already under way; its result, or undefined. */
  const submit = async <T>(run: () => Promise<T>): Promise<T | undefined> => {
    if (loading) return undefined;
    submitting.current = true;
    try {
      return await run();
    } finally {
      submitting.current = false;
    }
  };

  /** A sign-in this page started elsewhere (Google's button) decides where to go itself, too. */
  const hold = () => {
    submitting.current = true;
  };
  const release = () => {
    submitting.current = false;
  };

  return {
    hold,
    release,
    dispatch,
    navigate,
    location,
    target,
    loading,
    error,
    redirectNow: isAuthenticated && !submitting.current,
    submit,
  };
}
