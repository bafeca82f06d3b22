/**
 * "Download my data" on the settings page: ask for an export (one a day), see its state, and
 * download it (a signed link valid seven days) once the email says it is ready.
 */
import { useCallback, useEffect, useState } from 'react';
import { formatDate } from '@/lib/format';
import { errorMessage, http } from '@/lib/http';
import { toast } from '@/lib/toast';

interface ExportItem {
  id: string;
  state: 'pending' | 'running' | 'ready' | 'failed' | 'expired';
  createdAt: string;
  finishedAt: string | null;
  size: number | null;
  expiresAt: string | null;
  downloadUrl: string | null;
}

const STATE_TEXT: Record<ExportItem['state'], string> = {
  pending: 'Waiting to start',
  running: 'Being prepared',
  ready: 'Ready',
  failed: 'Failed — ask again tomorrow or contact support',
  expired: 'Expired',
};

function size(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function YourDataSection() {
  const [exports, setExports] = useState<ExportItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      const r = await http.get<{ exports: ExportItem[] }>('/user/export', 'Could not load your exports');
      setExports(r.exports);
      setError(null);
    } catch (e) {
      setError(errorMessage(e, 'Could not load your exports'));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  // While one is being prepared, look again every few seconds.
  useEffect(() => {
    if (!exports?.some((e) => e.state === 'pending' || e.state === 'running')) return;
    const timer = setInterval(() => void load(), 3000);
    return () => clearInterval(timer);
  }, [exports, load]);

  const start = async () => {
    setBusy(true);
    try {
      const r = await http.post<{ message: string }>('/user/export', {}, 'Could not start the export');
      toast.success(r.message);
      await load();
    } catch (e) {
      toast.error(errorMessage(e, 'Could not start the export'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <p className="muted small">
        A ZIP file with your profile, your posts (as JSON and Markdown, with their images), comments, likes, bookmarks, follows, notifications,
        activity, consent and money records. We email you when it is ready; the link works for 7 days. One export a day.
      </p>
      <button type="button" className="button" disabled={busy} onClick={() => void start()}>
        Download my data
      </button>
      {error ? <p className="form-error" role="alert">{error}</p> : null}
      {exports && exports.length > 0 ? (
        <ul className="session-list" aria-label="Your data exports" aria-live="polite">
          {exports.map((e) => (
            <li key={e.id} className="session-item" data-export-state={e.state}>
              <span>
                Requested {formatDate(e.createdAt)} · {STATE_TEXT[e.state]} {e.size ? `· ${size(e.size)}` : ''}
              </span>
              {e.downloadUrl ? (
                <a className="button button--ghost" href={e.downloadUrl} download>
                  Download ZIP
                </a>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
