import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { adminMessageCleared, selectAdmin } from '../admin-slice';

/** The outcome of the last administrator action, read out politely (errors assertively). */
export function ActionStatus() {
  const dispatch = useAppDispatch();
  const { message, error } = useAppSelector(selectAdmin);
  useEffect(() => {
    if (!message && !error) return;
    const timer = setTimeout(() => dispatch(adminMessageCleared()), 6000);
    return () => clearTimeout(timer);
  }, [dispatch, message, error]);
  return (
    <div className="action-status" aria-live="polite">
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : message ? (
        <p className="form-status" role="status">
          {message}
        </p>
      ) : null}
    </div>
  );
}
