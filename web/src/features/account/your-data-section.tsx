/**
 * "Download my data" on the settings page: ask for an export (one a day), see its state, and
 * download it (a signed link valid seven days) once the email says it is ready.
 */
import { useEffect, useState } from 'react';
import { useGetUserExportQuery, usePostUserExportMutation } from '@/api/endpoints';
import { formatDate } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';

/** What each state of an export (`ExportItem.state`) says. */
const STATE_TEXT: Record<string, string> = {
  pending: 'Waiting to start',
  running: 'Being prepared',
  ready: 'Ready',
  failed: 'Failed — ask again tomorrow or contact support',
  expired: 'Expired',
};

/** While one is being prepared, look again every few seconds. */
const POLL_MS = 3000;

function size(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '';
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function YourDataSection() {
  const [preparing, setPreparing] = useState(false);
  const { data, error, refetch } = useGetUserExportQuery(undefined, { pollingInterval: preparing ? POLL_MS : 0 });
  const exports = data?.exports ?? null;
  useEffect(() => {
    setPreparing(!!exports?.some((e) => e.state === 'pending' || e.state === 'running'));
  }, [exports]);
  const [requestExport] = usePostUserExportMutation();
  const [busy, setBusy] = useState(false);

  const start = async () => {
    setBusy(true);
    try {
      const r = await requestExport().unwrap();
      toast.success(r.message);
      await refetch();
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
      {error ? <p className="form-error" role="alert">{errorMessage(error, 'Could not load your exports')}</p> : null}
      {exports && exports.length > 0 ? (
        <ul className="session-list" aria-label="Your data exports" aria-live="polite">
          {exports.map((e) => (
            <li key={e.id} className="session-item" data-export-state={e.state}>
              <span>
                Requested {formatDate(e.createdAt)} · {STATE_TEXT[e.state] ?? ''} {e.size ? `· ${size(e.size)}` : ''}
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
