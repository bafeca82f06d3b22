import { useEffect, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { fetchPublicConfig } from '../api/auth-api';
import { googleLogin } from '../auth-slice';

export const GSI_SCRIPT_URL = 'https://accounts.google.com/gsi/client';

interface GoogleId {
  initialize(options: { client_id: string; callback: (response: { credential?: string }) => void }): void;
  renderButton(element: HTMLElement, options: Record<string, unknown>): void;
}

declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleId } };
  }
}

let scriptPromise: Promise<void> | null = null;

/** Loads the Google Identity Services script once. */
export function loadGoogleScript(): Promise<void> {
  if (window.google?.accounts?.id) return Promise.resolve();
  if (!scriptPromise) {
    scriptPromise = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = GSI_SCRIPT_URL;
      script.async = true;
      script.defer = true;
      script.onload = () => resolve();
      script.onerror = () => {
        scriptPromise = null;
        reject(new Error('Google sign-in is unavailable'));
      };
      document.head.appendChild(script);
    });
  }
  return scriptPromise;
}

/** Shows whether Google sign-in is configured (`GET /api/config/public`). */
export function useGoogleClientId(): string | null {
  const [clientId, setClientId] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    void fetchPublicConfig().then((config) => {
      if (alive) setClientId(config.googleClientId);
    });
    return () => {
      alive = false;
    };
  }, []);
  return clientId;
}

/** The Google Identity Services button; renders nothing when no client id is configured. */
export function GoogleSignInButton({ onSuccess, onStart, onFailure }: { onSuccess?: () => void; onStart?: () => void; onFailure?: () => void }) {
  const dispatch = useAppDispatch();
  const theme = useAppSelector((state) => state.theme.mode);
  const clientId = useGoogleClientId();
  const target = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const onSuccessRef = useRef(onSuccess);
  onSuccessRef.current = onSuccess;
  const onStartRef = useRef(onStart);
  onStartRef.current = onStart;
  const onFailureRef = useRef(onFailure);
  onFailureRef.current = onFailure;

  useEffect(() => {
    if (!clientId) return;
    let alive = true;
    loadGoogleScript()
      .then(() => {
        const id = window.google?.accounts?.id;
        if (!alive || !id || !target.current) return;
        id.initialize({
          client_id: clientId,
          callback: (response) => {
            if (!response.credential) return;
            onStartRef.current?.();
            void dispatch(googleLogin({ token: response.credential, sendEmail: true })).then((result) => {
              // With two-factor sign-in on, the login page asks for the code next.
              const pending = result.payload && typeof result.payload === 'object' && 'twoFactorChallenge' in result.payload;
              if (result.meta.requestStatus === 'fulfilled' && !pending) onSuccessRef.current?.();
              else onFailureRef.current?.();
            });
          },
        });
        id.renderButton(target.current, {
          type: 'standard',
          theme: theme === 'dark' ? 'filled_black' : 'outline',
          size: 'large',
          text: 'signin_with',
          shape: 'pill',
        });
      })
      .catch(() => alive && setFailed(true));
    return () => {
      alive = false;
    };
  }, [clientId, dispatch, theme]);

  if (!clientId) return null;
  return (
    <div className="google-signin">
      <div className="divider">
        <span>or</span>
      </div>
      <div ref={target} data-testid="google-button" />
      {failed ? <p className="muted">Google sign-in is unavailable right now.</p> : null}
    </div>
  );
}
