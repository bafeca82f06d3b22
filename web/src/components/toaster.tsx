import { useEffect, useState, type ReactNode } from 'react';
import { dismissToast, subscribeToasts, type Toast } from '@/lib/toast';

/** The toast column; `children` are extra toasts owned elsewhere (e.g. the location error). */
export function Toaster({ children }: { children?: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  useEffect(() => subscribeToasts(setToasts), []);
  return (
    <div className="toaster" aria-live="polite" role="status" data-testid="toaster">
      {children}
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast--${t.kind}`}>
          <span>{t.message}</span>
          <button type="button" className="toast__close" aria-label="Dismiss notification" onClick={() => dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
