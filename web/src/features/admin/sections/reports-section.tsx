import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { relativeTime } from '@/lib/format';
import { fetchReports, reviewReport, selectAdmin, sendReportNotification } from '../admin-slice';
import type { Report } from '../admin-types';
import { ListState } from '../components/list-state';
import { PinnedVersion } from '../components/pinned-version';
import { Pager } from '../../../components/pager';

import { REASON_LABELS } from '../report-reasons';

export { REASON_LABELS };

function ReviewForm({ report }: { report: Report }) {
  const dispatch = useAppDispatch();
  const [forward, setForward] = useState(report.forwardedToAuthor);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    await dispatch(reviewReport({ id: report._id, forwardToAuthor: forward }));
    setBusy(false);
  };
  return (
    <form className="inline-form" onSubmit={(e) => void submit(e)} aria-label={`Review the report on “${report.postTitle}”`}>
      <label className="checkbox">
        <input type="checkbox" checked={forward || report.forwardedToAuthor} disabled={report.forwardedToAuthor} onChange={(e) => setForward(e.target.checked)} />
        Forward to the author
      </label>
      <button type="submit" className="button button--small" disabled={busy}>
        {busy ? 'Saving...' : report.isReviewed ? 'Review again' : 'Mark reviewed'}
      </button>
    </form>
  );
}

function NoticeForm({ report, onDone }: { report: Report; onDone: () => void }) {
  const dispatch = useAppDispatch();
  const [subject, setSubject] = useState(`About your post “${report.postTitle}”`);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const result = await dispatch(sendReportNotification({ reportId: report._id, subject: subject.trim(), message: message.trim() }));
    setBusy(false);
    if (sendReportNotification.fulfilled.match(result)) onDone();
    else setError(result.payload ?? 'Failed to send notification');
  };
  return (
    <form className="form" onSubmit={(e) => void submit(e)} aria-label={`Notify ${report.author?.name ?? 'the author'}`}>
      <div className="field">
        <label htmlFor={`notice-subject-${report._id}`}>Subject</label>
        <input id={`notice-subject-${report._id}`} required maxLength={200} value={subject} onChange={(e) => setSubject(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`notice-message-${report._id}`}>Message to the author</label>
        <textarea id={`notice-message-${report._id}`} required rows={3} maxLength={5000} value={message} onChange={(e) => setMessage(e.target.value)} />
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="button-row">
        <button type="submit" className="button button--small" disabled={busy || !subject.trim() || !message.trim()}>
          {busy ? 'Sending...' : 'Send notification'}
        </button>
        <button type="button" className="button button--small button--ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function ReportsSection() {
  const dispatch = useAppDispatch();
  const { reports } = useAppSelector(selectAdmin);
  const [notifying, setNotifying] = useState<string | null>(null);

  useEffect(() => {
    void dispatch(fetchReports(1));
  }, [dispatch]);

  return (
    <>
      <p className="muted list-count">{reports.total} reports · new ones appear here as they arrive</p>
      <ListState status={reports.status} error={reports.error} count={reports.items.length} emptyText="No posts have been reported." onRetry={() => void dispatch(fetchReports())} />
      <ul className="card-list" aria-label="Reported posts" aria-live="polite">
        {reports.items.map((r) => {
          const slug = r.post?.slug;
          return (
            <li key={r._id} className={`card ${r.isReviewed ? '' : 'card--unread'}`} data-testid={`report-${r._id}`}>
              <div className="card__head">
                <div>
                  <strong>{slug ? <Link to={`/post/${encodeURIComponent(slug)}`}>{r.postTitle}</Link> : r.postTitle}</strong>
                  <div className="muted small">
                    {REASON_LABELS[r.reason] ?? r.reason} · reported by {r.reporter?.name ?? 'a former user'} · author{' '}
                    {r.author ? <Link to={`/author-profile/${r.author._id}`}>{r.author.name}</Link> : 'unknown'} ·{' '}
                    <time dateTime={r.createdAt}>{relativeTime(r.createdAt)}</time>
                  </div>
                </div>
                <div className="chips" aria-label="State">
                  <span className={`chip ${r.isReviewed ? 'chip--ok' : 'chip--info'}`}>{r.isReviewed ? 'reviewed' : 'open'}</span>
                  {r.forwardedToAuthor ? <span className="chip chip--info">forwarded</span> : null}
                  {r.isAcknowledged ? <span className="chip chip--ok">acknowledged</span> : null}
                </div>
              </div>
              {r.details ? <p className="card__text">{r.details}</p> : null}
              <PinnedVersion kind="report" postId={r.postId} postTitle={r.postTitle} revisionId={r.revisionId} editedSince={r.editedSince} postDeleted={r.postDeleted} />
              {r.noticesSent ? <p className="muted small">{r.noticesSent} notification(s) sent to the author</p> : null}
              <ReviewForm report={r} />
              {notifying === r._id ? (
                <NoticeForm report={r} onDone={() => setNotifying(null)} />
              ) : (
                <button type="button" className="button button--small button--ghost" disabled={!r.author} onClick={() => setNotifying(r._id)}>
                  Send a notification to the author
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <Pager label="Reports" page={reports.page} totalPages={reports.totalPages} onPage={(page) => void dispatch(fetchReports(page))} disabled={reports.status === 'loading'} />
    </>
  );
}
