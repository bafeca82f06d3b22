/**
 * `/acknowledge/{reportId}`: the author of a reported post reads the report an administrator
 * forwarded, with what the administrators told them, and acknowledges it. The reporter stays
 * anonymous.
 */
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { api, useGetAdminReportsByIdQuery } from '@/api/endpoints';
import { useAppDispatch } from '@/app/hooks';
import { Page } from '@/components/page';
import { formatDate, relativeTime } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { ADMIN_FALLBACK } from '../admin-api';
import { acknowledgeReport } from '../admin-slice';
import type { Schemas } from '@/api';

/** Authors get the report as `ReportView` (with `postSlug`), administrators as `AdminReportView` (with `post.slug`). */
type ShownReport = Schemas['EitherReport'];
const slugOf = (report: ShownReport) => ('postSlug' in report ? report.postSlug : report.post?.slug) || null;
import { REASON_LABELS } from '../sections/reports-section';

export function AcknowledgePage() {
  const { reportId = '' } = useParams();
  const dispatch = useAppDispatch();
  const { currentData: data, error: failure } = useGetAdminReportsByIdQuery({ id: reportId });
  const loadError = failure ? errorMessage(failure, ADMIN_FALLBACK.report) : null;
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const acknowledge = async () => {
    setBusy(true);
    setError(null);
    const result = await dispatch(acknowledgeReport(reportId));
    setBusy(false);
    if (acknowledgeReport.fulfilled.match(result)) {
      setStatus(result.payload.message);
      const acknowledged = result.payload.report;
      dispatch(api.util.updateQueryData('getAdminReportsById', { id: reportId }, (draft) => void Object.assign(draft.report, acknowledged ?? {}, { isAcknowledged: true })));
    } else setError(result.payload ?? ADMIN_FALLBACK.acknowledgeReport);
  };

  if (loadError) {
    return (
      <Page title="Report">
        <p className="form-error" role="alert">
          {loadError}
        </p>
        <Link to="/message-box?type=admin">Back to your messages</Link>
      </Page>
    );
  }
  if (!data) {
    return (
      <Page title="Report">
        <p role="status">Loading...</p>
      </Page>
    );
  }
  const { report, messages } = data;
  return (
    <Page title="A report on your post">
      <div className="panel">
        <p>
          A reader reported your post{' '}
          <strong>{slugOf(report) ? <Link to={`/post/${encodeURIComponent(slugOf(report) ?? '')}`}>{report.postTitle}</Link> : report.postTitle}</strong> as{' '}
          <strong>{(REASON_LABELS[report.reason] ?? report.reason).toLowerCase()}</strong> on {formatDate(report.createdAt)}. An administrator reviewed it and
          asks you to look at it.
        </p>
        <div className="chips" aria-label="State">
          <span className={`chip ${report.isReviewed ? 'chip--ok' : 'chip--info'}`}>{report.isReviewed ? 'reviewed' : 'open'}</span>
          {report.forwardedToAuthor ? <span className="chip chip--info">forwarded to you</span> : null}
          {report.isAcknowledged ? <span className="chip chip--ok">acknowledged</span> : null}
        </div>
      </div>
      <section className="panel" aria-labelledby="admin-messages-title">
        <h2 id="admin-messages-title">From the administrators</h2>
        {messages.length === 0 ? (
          <p className="muted">No message yet.</p>
        ) : (
          <ul className="card-list">
            {messages.map((m) => (
              <li key={m._id} className="card">
                <p className="card__text">{m.content}</p>
                <span className="muted small">{relativeTime(m.createdAt)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <div className="panel">
        {report.isAcknowledged ? (
          <p className="form-status" role="status">
            {status ?? `You acknowledged this report${report.acknowledgedAt ? ` on ${formatDate(report.acknowledgedAt)}` : ''}.`}
          </p>
        ) : (
          <>
            <p>Once you have looked at your post (and changed it if needed), let the administrators know.</p>
            <div className="button-row">
              <button type="button" className="button" disabled={busy} onClick={() => void acknowledge()}>
                {busy ? 'Sending...' : 'Acknowledge the report'}
              </button>
            </div>
          </>
        )}
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </Page>
  );
}

export default AcknowledgePage;
