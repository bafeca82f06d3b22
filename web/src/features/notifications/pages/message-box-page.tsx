import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { Page } from '@/components/page';
import { relativeTime } from '@/lib/format';
import {
  deleteNotification,
  fetchNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  selectNotifications,
} from '../notifications-slice';
import { isAdminType, notificationText } from '../notification-text';

/** The notification inbox; `type=admin|post` filters, `id` highlights one. */
export default function MessageBoxPage() {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const type = params.get('type');
  const highlighted = params.get('id');
  const { list, loading, error, total, page } = useAppSelector(selectNotifications);

  useEffect(() => {
    void dispatch(fetchNotifications({ page: 1 }));
  }, [dispatch]);

  const shown = list.filter((n) => (type === 'admin' ? isAdminType(n.type) : type === 'post' ? !isAdminType(n.type) : true));

  return (
    <Page title="Messages">
      <div className="toolbar">
        <span className="muted">{type === 'admin' ? 'From administrators' : type === 'post' ? 'About your posts' : 'All notifications'}</span>
        <button type="button" className="button button--small" disabled={loading || list.length === 0} onClick={() => void dispatch(markAllNotificationsRead())}>
          Mark All Read
        </button>
      </div>
      {error ? <p className="form-error" role="alert">{error}</p> : null}
      {loading && list.length === 0 ? <p>Loading...</p> : null}
      {!loading && !error && shown.length === 0 ? <p className="muted">No notifications</p> : null}
      <ul className="inbox">
        {shown.map((n) => (
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
        <button type="button" className="button button--ghost" disabled={loading} onClick={() => void dispatch(fetchNotifications({ page: page + 1 }))}>
          Load more
        </button>
      ) : null}
    </Page>
  );
}
