import { useEffect } from 'react';
import { reloadPage } from '@/lib/browser';

export const AUTO_RELOAD_MS = 1500;
export const ERROR_LOADING_COMPONENT = 'Error loading component';
export const SOMETHING_WENT_WRONG = 'Something went wrong!';
export const UNKNOWN_ERROR = 'An unknown error occurred.';

/** Shown when a page module fails to load; reloads by itself after 1.5 s. */
export function PageLoadError({ error }: { error?: unknown }) {
  useEffect(() => {
    const timer = setTimeout(reloadPage, AUTO_RELOAD_MS);
    return () => clearTimeout(timer);
  }, []);
  const detail = error instanceof Error && error.message ? error.message : null;
  return (
    <div className="error-panel" role="alert">
      <h2>{ERROR_LOADING_COMPONENT}</h2>
      {detail ? <p className="muted">{detail}</p> : null}
      <p className="muted">Reloading the page…</p>
      <button type="button" className="button" onClick={reloadPage}>
        Reload Page
      </button>
    </div>
  );
}

/** The generic error panel. */
export function GenericErrorPanel({ error }: { error?: unknown }) {
  const message =
    error instanceof Error && error.message
      ? error.message
      : typeof error === 'string' && error
        ? error
        : UNKNOWN_ERROR;
  return (
    <div className="error-panel" role="alert">
      <h2>{SOMETHING_WENT_WRONG}</h2>
      <p>{message}</p>
      <button type="button" className="button" onClick={reloadPage}>
        Reload Page
      </button>
    </div>
  );
}
