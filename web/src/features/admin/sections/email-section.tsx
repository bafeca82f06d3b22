import { useEffect, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { formatDate, relativeTime } from '@/lib/format';
import { emailFilterChanged, emailReportDateChanged, fetchEmailReports, fetchEmailStatuses, fetchRetryJob, retryFailedEmails, selectAdmin } from '../admin-slice';
import type { EmailReport, EmailStatus } from '../admin-types';
import { AdminTable, type Column } from '../components/admin-table';
import { JobProgress } from '../components/job-progress';
import { useConfirmedAction } from '../components/use-confirmed-action';

export const EMAIL_TYPES: [string, string][] = [
  ['verify_otp', 'Verification code'],
  ['reset_otp', 'Password reset code'],
  ['welcome', 'Welcome'],
  ['contact_reply', 'Contact reply'],
  ['report_notice', 'Report notice'],
  ['daily_post', 'Daily post email'],
  ['renewal_reminder', 'Renewal reminder'],
  ['security', 'Account security'],
];
const typeLabel = (type: string) => EMAIL_TYPES.find(([t]) => t === type)?.[1] ?? type;

function Outcome({ log }: { log: Pick<EmailStatus, 'success'> & Partial<Pick<EmailStatus, 'stopEmailAttempts'>> }) {
  if (log.success) return <span className="chip chip--ok">sent</span>;
  if (log.stopEmailAttempts) return <span className="chip chip--danger">given up</span>;
  return <span className="chip chip--info">failed, can retry</span>;
}

const STATUS_COLUMNS: Column<EmailStatus>[] = [
  { header: 'Address', cell: (log) => log.email },
  { header: 'Type', cell: (log) => typeLabel(log.type) },
  { header: 'Subject', cell: (log) => log.subject ?? '' },
  {
    header: 'Outcome',
    cell: (log) => (
      <>
        <Outcome log={log} />
        {log.error ? <div className="muted small">{log.error}</div> : null}
      </>
    ),
  },
  { header: 'Attempts', cell: (log) => (log.attempts ?? 0) + (log.retries ?? 0) },
  { header: 'Last attempt', cell: (log) => relativeTime(log.lastAttemptAt ?? log.sentAt ?? log.createdAt) },
];

const REPORT_COLUMNS: Column<EmailReport>[] = [
  { header: 'Day', cell: (r) => r.date },
  { header: 'Recipient', cell: (r) => r.email },
  { header: 'Posts', cell: (r) => r.postCount },
  {
    header: 'Status',
    cell: (r) => (
      <>
        <span className={`chip ${r.success ? 'chip--ok' : r.status === 'failed' ? 'chip--danger' : 'chip--info'}`}>{r.status}</span>
        {r.error ? <div className="muted small">{r.error}</div> : null}
      </>
    ),
  },
];

function Statuses() {
  const dispatch = useAppDispatch();
  const { emailStatuses, jobs } = useAppSelector(selectAdmin);
  const [email, setEmail] = useState(emailStatuses.email);
  const retryAll = useConfirmedAction((emailType: string) => dispatch(retryFailedEmails(emailType)).then(() => dispatch(fetchEmailStatuses({}))));
  const retryJob = emailStatuses.retry.jobId ?? null;
  const retryJobStatus = retryJob ? jobs[retryJob]?.status : undefined;
  // The retry runs in the background: when its job ends, read its results and the statuses.
  useEffect(() => {
    if (retryJob && (retryJobStatus === 'done' || retryJobStatus === 'failed')) {
      void dispatch(fetchRetryJob(retryJob)).then(() => dispatch(fetchEmailStatuses({})));
    }
  }, [dispatch, retryJob, retryJobStatus]);

  useEffect(() => {
    void dispatch(fetchEmailStatuses({ page: 1 }));
  }, [dispatch, emailStatuses.type, emailStatuses.email]);

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    dispatch(emailFilterChanged({ email: email.trim() }));
  };
  const { retry } = emailStatuses;
  const type = emailStatuses.type;
  return (
    <section className="dashboard-block" aria-labelledby="email-statuses-title">
      <h3 id="email-statuses-title">Email statuses</h3>
      <form className="inline-form" role="search" onSubmit={onSearch}>
        <div className="field">
          <label htmlFor="email-type">Type</label>
          <select id="email-type" value={type} onChange={(e) => dispatch(emailFilterChanged({ type: e.target.value }))}>
            <option value="">Every type</option>
            {EMAIL_TYPES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="email-address">Address</label>
          <input id="email-address" type="search" placeholder="Every address" value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <button type="submit" className="button button--small">
          Show
        </button>
      </form>
      <div className="button-row">
        <button type="button" className="button button--small" disabled={!type || retry.status === 'loading'} onClick={() => retryAll.ask(type)}>
          {retry.status === 'loading' ? 'Retrying...' : type ? `Retry failed “${typeLabel(type)}” emails` : 'Choose a type to retry its failed emails'}
        </button>
      </div>
      {retry.error ? (
        <p className="form-error" role="alert">
          {retry.error}
        </p>
      ) : null}
      <JobProgress jobId={retry.status === 'succeeded' ? retry.jobId : null} />
      {retry.status === 'succeeded' && (!retry.jobId || retry.results.length > 0 || retryJobStatus === 'done') ? (
        <div className="retry-results" role="status">
          <p className="form-status">
            {retry.message} — {retry.results.filter((r) => r.success).length} sent, {retry.results.filter((r) => !r.success).length} still failing
          </p>
          {retry.results.length > 0 ? (
            <table className="data-table data-table--compact" aria-label="Retry results">
              <thead>
                <tr>
                  <th scope="col">Address</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Detail</th>
                </tr>
              </thead>
              <tbody>
                {retry.results.map((r) => (
                  <tr key={r._id}>
                    <td>{'email' in r ? r.email : null}</td>
                    <td>
                      <Outcome log={r} />
                    </td>
                    <td className="small">{r.error ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </div>
      ) : null}
      <p className="muted list-count">{emailStatuses.total} messages</p>
      <AdminTable
        list={emailStatuses}
        label="Email statuses"
        columns={STATUS_COLUMNS}
        emptyText="No emails match."
        onRetry={() => void dispatch(fetchEmailStatuses({}))}
        onPage={(page) => void dispatch(fetchEmailStatuses({ page }))}
      />
      {retryAll.dialog((emailType) => ({
        title: `Retry the failed “${typeLabel(emailType)}” emails?`,
        confirmLabel: 'Retry now',
        body: <p>Send every open failed {typeLabel(emailType)} email again (at most 100)?</p>,
      }))}
    </section>
  );
}

function DailyReport() {
  const dispatch = useAppDispatch();
  const { emailReports } = useAppSelector(selectAdmin);
  const [date, setDate] = useState(emailReports.date || new Date().toISOString().slice(0, 10));
  useEffect(() => {
    void dispatch(fetchEmailReports({ page: 1 }));
  }, [dispatch, emailReports.date]);
  const onShow = (event: FormEvent) => {
    event.preventDefault();
    dispatch(emailReportDateChanged(date));
  };
  return (
    <section className="dashboard-block" aria-labelledby="daily-report-title">
      <h3 id="daily-report-title">Daily post email report</h3>
      <form className="inline-form" onSubmit={onShow}>
        <div className="field">
          <label htmlFor="daily-date">Day it went out</label>
          <input id="daily-date" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        </div>
        <button type="submit" className="button button--small">
          Show
        </button>
        {emailReports.date ? (
          <button
            type="button"
            className="button button--small button--ghost"
            onClick={() => {
              setDate('');
              dispatch(emailReportDateChanged(''));
            }}
          >
            Every day
          </button>
        ) : null}
      </form>
      <p className="muted list-count">
        {emailReports.total} recipients {emailReports.date ? `on ${formatDate(emailReports.date)}` : 'in all'}
      </p>
      <AdminTable
        list={emailReports}
        label="Daily report"
        columns={REPORT_COLUMNS}
        emptyText="Nobody got the daily email that day."
        onRetry={() => void dispatch(fetchEmailReports({}))}
        onPage={(page) => void dispatch(fetchEmailReports({ page }))}
      />
    </section>
  );
}

export function EmailSection() {
  return (
    <>
      <Statuses />
      <DailyReport />
    </>
  );
}
