import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Page } from '@/components/page';
import { relativeTime } from '@/lib/format';
import { PushInboxControl } from '@/features/push';
import type { UserNotification } from '@/types/entities';
import type { InboxType } from '../notifications-api';
import {
  deleteNotification,
  fetchInbox,
  markAllNotificationsRead,
  markNotificationRead,
  replyToNotification,
  selectNotifications,
} from '../notifications-slice';
import { notificationLink, notificationText } from '../notification-text';

const FILTERS: { type: InboxType | null; label: string }[] = [
  { type: null, label: 'All' },
  { type: 'admin', label: 'From administrators' },
  { type: 'post', label: 'About your posts' },
];

/** Only an administrator's notice with a sender can be answered (the server refuses the rest). */
export function canReply(n: UserNotification): boolean {
  return n.type === 'admin' && !!n.sender;
}

function ReplyForm({ notice, onDone }: { notice: UserNotification; onDone: () => void }) {
  const dispatch = useAppDispatch();
  const id = useId();
  const [content, setContent] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setSending(true);
    setError(null);
    const result = await dispatch(replyToNotification({ notificationId: notice._id, content: content.trim() }));
    setSending(false);
    if (replyToNotification.fulfilled.match(result)) {
      setContent('');
      // An answered notice has been read.
      if (!notice.read) void dispatch(markNotificationRead(notice._id));
      onDone();
    } else {
      setError(result.payload ?? 'Failed to reply to notification');
    }
  };

  return (
    <form className="inbox__reply-form" onSubmit={(e) => void send(e)}>
      <label htmlFor={`reply-${id}`}>Your reply to the administrator</label>
      <textarea id={`reply-${id}`} value={content} rows={3} onChange={(e) => setContent(e.target.value)} autoFocus />
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="form-actions">
        <button type="button" className="button button--ghost button--small" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button button--small" disabled={sending}>
          {sending ? 'Sending...' : 'Send reply'}
        </button>
      </div>
    </form>
  );
}

/**
 * The notification inbox: every item leads where its navigateTo (or the seed's fallback) says,
 * an administrator's notice can be answered, filters by kind (`type=admin|post`, on the server),
 * pages, marks read and deletes after asking. `id` highlights one item.
 */
export default function MessageBoxPage() {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const raw = params.get('type');
  const type: InboxType | null = raw === 'admin' || raw === 'post' ? raw : null;
  const highlighted = params.get('id');
  const { inbox, loading: acting, error: actionError } = useAppSelector(selectNotifications);
  const current = inbox.type === type ? inbox : { ...inbox, list: [], total: 0, status: 'loading' as const };
  const { list, total, page, status, error } = current;
  const loading = status === 'loading';
  const [replying, setReplying] = useState<string | null>(null);
  const [doomed, setDoomed] = useState<UserNotification | null>(null);
  const [deleting, setDeleting] = useState(false);
  const highlightRef = useRef<HTMLLIElement>(null);

  useEffect(() => {
    void dispatch(fetchInbox({ page: 1, type }));
  }, [dispatch, type]);

  const highlightShown = list.some((n) => n._id === highlighted);
  useEffect(() => {
    if (highlightShown) highlightRef.current?.scrollIntoView?.({ block: 'center' });
  }, [highlightShown]);

  const open = (n: UserNotification) => {
    if (!n.read) void dispatch(markNotificationRead(n._id));
  };

  const confirmDelete = async () => {
    if (!doomed) return;
    setDeleting(true);
    await dispatch(deleteNotification(doomed._id));
    setDeleting(false);
    setDoomed(null);
  };

  return (
    <Page title="Messages">
      <nav className="tabs inbox__filters" aria-label="Show">
        {FILTERS.map((f) => (
          <Link
            key={f.label}
            to={f.type ? `/message-box?type=${f.type}` : '/message-box'}
            className={`tab ${f.type === type ? 'tab--active' : ''}`}
            aria-current={f.type === type ? 'page' : undefined}
          >
            {f.label}
          </Link>
        ))}
      </nav>
      <PushInboxControl />
      <div className="toolbar">
        <span className="muted" aria-live="polite">
          {loading ? 'Loading...' : `${total} ${total === 1 ? 'notification' : 'notifications'}`}
        </span>
        <button type="button" className="button button--small" disabled={loading || acting || list.length === 0} onClick={() => void dispatch(markAllNotificationsRead())}>
          Mark All Read
        </button>
      </div>
      {/* An open reply form shows its own error; this one is for the list and its actions. */}
      {error || (actionError && replying === null) ? (
        <p className="form-error" role="alert">
          {error ?? actionError}
        </p>
      ) : null}
      {loading && list.length === 0 ? <p>Loading...</p> : null}
      {!loading && !error && list.length === 0 ? <p className="muted">No notifications</p> : null}
      <ul className="inbox">
        {list.map((n) => {
          const text = notificationText(n);
          const thread = inbox.replies[n._id] ?? [];
          return (
            <li
              key={n._id}
              ref={highlighted === n._id ? highlightRef : undefined}
              className={`inbox__item ${n.read ? '' : 'inbox__item--unread'} ${highlighted === n._id ? 'inbox__item--highlight' : ''}`}
              data-testid="inbox-item"
            >
              <Avatar name={n.sender?.name || 'User'} src={n.sender?.avatar} />
              <div className="inbox__body">
                <p>
                  <Link to={notificationLink(n)} className="inbox__link" onClick={() => open(n)}>
                    {text}
                  </Link>
                  {n.read ? null : <span className="visually-hidden"> (unread)</span>}
                </p>
                <small className="muted">{relativeTime(n.createdAt)}</small>
                {thread.length > 0 ? (
                  <ul className="inbox__thread" aria-label="Your replies">
                    {thread.map((r) => (
                      <li key={r._id}>
                        <strong>You replied:</strong> {r.content} <small className="muted">{relativeTime(r.createdAt)}</small>
                      </li>
                    ))}
                  </ul>
                ) : null}
                {replying === n._id ? <ReplyForm notice={n} onDone={() => setReplying(null)} /> : null}
              </div>
              <div className="inbox__actions">
                {canReply(n) && replying !== n._id ? (
                  <button type="button" className="link-button" aria-label={`Reply to ${text}`} onClick={() => setReplying(n._id)}>
                    Reply
                  </button>
                ) : null}
                {!n.read ? (
                  <button type="button" className="link-button" aria-label={`Mark read: ${text}`} onClick={() => void dispatch(markNotificationRead(n._id))}>
                    Mark read
                  </button>
                ) : null}
                <button type="button" className="link-button link-button--danger" aria-label={`Delete: ${text}`} onClick={() => setDoomed(n)}>
                  Delete
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {list.length < total ? (
        <button type="button" className="button button--ghost" disabled={loading} onClick={() => void dispatch(fetchInbox({ page: page + 1, type }))}>
          {loading ? 'Loading...' : 'Load more'}
        </button>
      ) : null}
      {doomed ? (
        <ConfirmDialog title="Delete this notification?" confirmLabel="Delete" danger busy={deleting} onConfirm={() => void confirmDelete()} onCancel={() => setDoomed(null)}>
          <p>“{notificationText(doomed)}” will be removed from your inbox. This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </Page>
  );
}
