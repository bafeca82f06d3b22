import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { Page } from '@/components/page';
import { relativeTime } from '@/lib/format';
import type { InboxType } from '../notifications-api';
import { deleteNotification, fetchInbox, markAllNotificationsRead, markNotificationRead, selectNotifications } from '../notifications-slice';
import { notificationText } from '../notification-text';

/** The notification inbox; `type=admin|post` filters (on the server, page by page), `id` highlights one. */
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

  useEffect(() => {
    void dispatch(fetchInbox({ page: 1, type }));
  }, [dispatch, type]);

  return (
    <Page title="Messages">
      <div className="toolbar">
        <span className="muted">{type === 'admin' ? 'From administrators' : type === 'post' ? 'About your posts' : 'All notifications'}</span>
        <button type="button" className="button button--small" disabled={loading || acting || list.length === 0} onClick={() => void dispatch(markAllNotificationsRead())}>
          Mark All Read
        </button>
      </div>
      {error || actionError ? <p className="form-error" role="alert">{error ?? actionError}</p> : null}
      {loading && list.length === 0 ? <p>Loading...</p> : null}
      {!loading && !error && list.length === 0 ? <p className="muted">No notifications</p> : null}
      <ul className="inbox">
        {list.map((n) => (
          <li key={n._id} className={`inbox__item ${n.read ? '' : 'inbox__item--unread'} ${highlighted === n._id ? 'inbox__item--highlight' : ''}`}>
            <Avatar name={n.sender?.name || 'User'} src={n.sender?.avatar} />
            <div className="inbox__body">
              <p>{notificationText(n)}</p>
              <small className="muted">{relativeTime(n.createdAt)}</small>
            </div>
            <div className="inbox__actions">
              {!n.read ? (
                <button type="button" className="link-button" onClick={() => void dispatch(markNotificationRead(n._id))}>
                  Mark read
                </button>
              ) : null}
              <button type="button" className="link-button" onClick={() => void dispatch(deleteNotification(n._id))}>
                Delete
              </button>
            </div>
          </li>
        ))}
      </ul>
      {list.length < total ? (
        <button type="button" className="button button--ghost" disabled={loading} onClick={() => void dispatch(fetchInbox({ page: page + 1, type }))}>
          Load more
        </button>
      ) : null}
    </Page>
  );
}
