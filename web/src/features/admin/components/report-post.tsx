/**
 * "Report" on a post page: a reader picks a reason and may add details; the server's
 * confirmation is shown. Once per post: after a report (or the server saying it was already
 * reported) the button says so and is disabled. Shown to every signed-in reader of a post: the
 * endpoint loads when a report is sent (api/on-demand.ts).
 */
import { useState, type FormEvent } from 'react';
import { loadApi } from '@/api/on-demand';
import { useAppDispatch } from '@/app/hooks';
import { Modal } from '@/components/modal';
import { FormError } from '@/components/form-field';
import { errorMessage, errorStatus } from '@/lib/http';
import { ADMIN_FALLBACK } from '../admin-api';
import { REASON_LABELS } from '../report-reasons';

export function ReportPostButton({ postId }: { postId: string }) {
  const dispatch = useAppDispatch();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [details, setDetails] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !reason) return;
    setBusy(true);
    setError(null);
    try {
      const api = await loadApi();
      const r = await dispatch(api.endpoints.postAdminReports.initiate({ body: { postId, reason, details: details.trim() } }, { track: false })).unwrap();
      setDone(r.message || 'Thank you. The post was reported to the moderators.');
      setOpen(false);
    } catch (e) {
      // Already reported: the one report stands; say so and close the way to a second one.
      if (errorStatus(e) === 409) {
        setDone(errorMessage(e, ADMIN_FALLBACK.createReport));
        setOpen(false);
      } else setError(errorMessage(e, ADMIN_FALLBACK.createReport));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className="button button--small button--ghost" disabled={Boolean(done)} onClick={() => setOpen(true)}>
        {done ? 'Reported' : 'Report'}
      </button>
      {done ? (
        <span className="form-status small" role="status">
          {done}
        </span>
      ) : null}
      {open ? (
        <Modal title="Report this post" labelledBy="report-title" onClose={() => setOpen(false)}>
          <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy}>
            <fieldset className="fieldset">
              <legend>Why are you reporting it?</legend>
              {Object.entries(REASON_LABELS).map(([value, label]) => (
                <label key={value} className="radio">
                  <input type="radio" name="report-reason" value={value} checked={reason === value} onChange={() => setReason(value)} required /> {label}
                </label>
              ))}
            </fieldset>
            <div className="field">
              <label htmlFor="report-details">Details (optional)</label>
              <textarea id="report-details" rows={3} maxLength={2000} value={details} onChange={(e) => setDetails(e.target.value)} />
            </div>
            <FormError message={error} />
            <div className="form-actions">
              <button type="button" className="button button--ghost" onClick={() => setOpen(false)}>
                Cancel
              </button>
              <button type="submit" className="button" disabled={busy || !reason}>
                {busy ? 'Sending...' : 'Send report'}
              </button>
            </div>
          </form>
        </Modal>
      ) : null}
    </>
  );
}
