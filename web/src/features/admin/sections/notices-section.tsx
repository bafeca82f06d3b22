import { useEffect, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { broadcastNotice, fetchUserHistory, selectNotifications, sendAdminNotice } from '@/features/notifications';
import { formatDate, relativeTime } from '@/lib/format';
import { fetchFeedbacks, selectAdmin, sendFeedbackPrompt } from '../admin-slice';
import type { AdminUser } from '../admin-types';
import { JobProgress } from '../components/job-progress';
import { ListState } from '../components/list-state';
import { Pager } from '../../../components/pager';
import { UserPicker } from '../components/user-picker';

const DEFAULT_PROMPT = "We'd love your feedback!";

function Outcome({ ok, error }: { ok: string | null; error: string | null }) {
  if (error)
    return (
      <p className="form-error" role="alert">
        {error}
      </p>
    );
  if (ok)
    return (
      <p className="form-status" role="status">
        {ok}
      </p>
    );
  return null;
}

function NoticeToUser() {
  const dispatch = useAppDispatch();
  const [user, setUser] = useState<AdminUser | null>(null);
  const [content, setContent] = useState('');
  const [link, setLink] = useState('');
  const [state, setState] = useState<{ busy: boolean; ok: string | null; error: string | null }>({ busy: false, ok: null, error: null });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setState({ busy: true, ok: null, error: null });
    const result = await dispatch(sendAdminNotice({ userId: user?._id ?? '', content: content.trim(), navigateTo: link.trim() || undefined }));
    if (sendAdminNotice.fulfilled.match(result)) {
      setState({ busy: false, ok: `Notice sent to ${user?.name}.`, error: null });
      setContent('');
      setLink('');
      if (user) void dispatch(fetchUserHistory(user._id));
    } else setState({ busy: false, ok: null, error: result.payload ?? 'Failed to send notification' });
  };
  return (
    <form className="form dashboard-block" onSubmit={(e) => void submit(e)} aria-labelledby="notice-user-title">
      <h3 id="notice-user-title">Notice to one user</h3>
      <UserPicker label="Recipient" value={user} onChange={setUser} />
      <div className="field">
        <label htmlFor="notice-content">Notice</label>
        <textarea id="notice-content" rows={3} maxLength={2000} value={content} onChange={(e) => setContent(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="notice-link">Link (optional, a path in the site)</label>
        <input id="notice-link" placeholder="/post/..." value={link} onChange={(e) => setLink(e.target.value)} />
      </div>
      <Outcome ok={state.ok} error={state.error} />
      <div className="button-row">
        <button type="submit" className="button button--small" disabled={state.busy || !user || !content.trim()}>
          {state.busy ? 'Sending...' : 'Send notice'}
        </button>
      </div>
      {user ? <History user={user} /> : null}
    </form>
  );
}

function History({ user }: { user: AdminUser }) {
  const dispatch = useAppDispatch();
  const history = useAppSelector(selectNotifications).userNotificationHistory;
  const [status, setStatus] = useState<'loading' | 'done' | 'failed'>('loading');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setStatus('loading');
    void dispatch(fetchUserHistory(user._id)).then((r) => {
      if (fetchUserHistory.fulfilled.match(r)) setStatus('done');
      else {
        setStatus('failed');
        setError(r.payload ?? 'Failed to fetch user history');
      }
    });
  }, [dispatch, user._id]);
  const notices = history.filter((n) => n.type === 'admin' || n.type === 'admin_reply');
  return (
    <div className="history">
      <h4>Notices of {user.name}</h4>
      {status === 'loading' ? <p role="status">Loading...</p> : null}
      {status === 'failed' ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {status === 'done' && notices.length === 0 ? <p className="muted">No notices yet.</p> : null}
      <ul className="compact-list">
        {notices.map((n) => (
          <li key={n._id}>
            <span className="chip chip--muted">{n.type === 'admin_reply' ? 'their reply' : n.read ? 'read' : 'unread'}</span> {n.content}{' '}
            <span className="muted small">{relativeTime(n.createdAt)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Broadcast() {
  const dispatch = useAppDispatch();
  const [content, setContent] = useState('');
  const [state, setState] = useState<{ busy: boolean; ok: string | null; error: string | null }>({ busy: false, ok: null, error: null });
  const [jobId, setJobId] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setState({ busy: true, ok: null, error: null });
    const result = await dispatch(broadcastNotice({ content: content.trim() }));
    if (broadcastNotice.fulfilled.match(result)) {
      const count = result.payload?.count;
      setState({ busy: false, ok: count == null ? 'The notice is on its way to every user.' : `The notice is on its way to ${count} ${count === 1 ? 'user' : 'users'}.`, error: null });
      setJobId(result.payload?.jobId ?? null);
      setContent('');
    } else setState({ busy: false, ok: null, error: result.payload ?? 'Failed to broadcast notification' });
  };
  return (
    <form className="form dashboard-block" onSubmit={(e) => void submit(e)} aria-labelledby="broadcast-title">
      <h3 id="broadcast-title">Broadcast to everyone</h3>
      <div className="field">
        <label htmlFor="broadcast-content">Notice</label>
        <textarea id="broadcast-content" rows={3} maxLength={2000} value={content} onChange={(e) => setContent(e.target.value)} />
      </div>
      <Outcome ok={state.ok} error={state.error} />
      <JobProgress jobId={jobId} />
      <div className="button-row">
        <button type="submit" className="button button--small" disabled={state.busy || !content.trim()}>
          {state.busy ? 'Sending...' : 'Broadcast'}
        </button>
      </div>
    </form>
  );
}

function FeedbackPrompt() {
  const dispatch = useAppDispatch();
  const [user, setUser] = useState<AdminUser | null>(null);
  const [message, setMessage] = useState(DEFAULT_PROMPT);
  const [state, setState] = useState<{ busy: boolean; ok: string | null; error: string | null }>({ busy: false, ok: null, error: null });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!user) return;
    setState({ busy: true, ok: null, error: null });
    const result = await dispatch(sendFeedbackPrompt({ userId: user._id, message: message.trim() }));
    if (sendFeedbackPrompt.fulfilled.match(result)) setState({ busy: false, ok: `${user.name} is asked for feedback now.`, error: null });
    else setState({ busy: false, ok: null, error: result.payload ?? 'Failed to send feedback prompt' });
  };
  return (
    <form className="form dashboard-block" onSubmit={(e) => void submit(e)} aria-labelledby="prompt-title">
      <h3 id="prompt-title">Ask for feedback</h3>
      <UserPicker label="User" value={user} onChange={setUser} />
      <div className="field">
        <label htmlFor="prompt-message">Prompt</label>
        <input id="prompt-message" maxLength={200} value={message} onChange={(e) => setMessage(e.target.value)} />
      </div>
      <Outcome ok={state.ok} error={state.error} />
      <div className="button-row">
        <button type="submit" className="button button--small" disabled={state.busy || !user}>
          {state.busy ? 'Sending...' : 'Send prompt'}
        </button>
      </div>
    </form>
  );
}

function FeedbackReceived() {
  const dispatch = useAppDispatch();
  const { feedbacks } = useAppSelector(selectAdmin);
  useEffect(() => {
    void dispatch(fetchFeedbacks(1));
  }, [dispatch]);
  return (
    <section className="dashboard-block" aria-labelledby="feedback-title">
      <h3 id="feedback-title">Feedback received</h3>
      <ListState status={feedbacks.status} error={feedbacks.error} count={feedbacks.items.length} emptyText="No feedback yet." onRetry={() => void dispatch(fetchFeedbacks())} />
      <ul className="card-list">
        {feedbacks.items.map((f) => (
          <li key={f._id} className="card">
            <div className="card__head">
              <span aria-label={`${f.rating} out of 5`} className="rating">
                {'★'.repeat(f.rating)}
                <span className="rating__off">{'★'.repeat(Math.max(0, 5 - f.rating))}</span>
              </span>
              <span className="muted small">
                {f.user?.name ?? 'Deleted user'} · {formatDate(f.createdAt)}
              </span>
            </div>
            <p className="card__text">{f.message}</p>
          </li>
        ))}
      </ul>
      <Pager label="Feedback" page={feedbacks.page} totalPages={feedbacks.totalPages} onPage={(page) => void dispatch(fetchFeedbacks(page))} />
    </section>
  );
}

export function NoticesSection() {
  return (
    <div className="two-columns">
      <div>
        <NoticeToUser />
        <Broadcast />
        <FeedbackPrompt />
      </div>
      <FeedbackReceived />
    </div>
  );
}
