import { Link, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { relativeTime } from '@/lib/format';
import { selectSocketError, selectSocketStatus } from '@/features/socket';
import type { UserNotification } from '@/types/entities';
import { markAllNotificationsRead, markNotificationRead, selectNotificationList, selectNotifications } from '../notifications-slice';
import { notificationLink, notificationText } from '../notification-text';

export function NotificationDropdown({ onNavigate }: { onNavigate: () => void }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { loading, error } = useAppSelector(selectNotifications);
  const list = useAppSelector(selectNotificationList);
  const socketStatus = useAppSelector(selectSocketStatus);
  const socketError = useAppSelector(selectSocketError);

  const open = (n: UserNotification) => {
    if (!n.read) void dispatch(markNotificationRead(n._id));
    onNavigate();
    navigate(notificationLink(n));
  };

  return (
    <div className="dropdown notification-dropdown" role="region" aria-label="Notifications list" style={{ maxHeight: 400 }}>
      <div className="dropdown__header">
        <span className="dropdown__heading">NOTIFICATIONS</span>
        <div className="dropdown__header-actions">
          <Link to="/message-box" onClick={onNavigate}>
            View All
          </Link>
          <button
            type="button"
            className="link-button"
            disabled={loading || list.length === 0}
            onClick={() => void dispatch(markAllNotificationsRead())}
          >
            Mark All Read
          </button>
        </div>
      </div>
      {socketStatus === 'disconnected' && socketError ? (
        <p className="dropdown__state dropdown__state--error" role="alert">
          Live updates unavailable: {socketError}
        </p>
      ) : null}
      {error ? (
        <p className="dropdown__state dropdown__state--error" role="alert">
          {error}
        </p>
      ) : null}
      {loading && list.length === 0 ? <p className="dropdown__state">Loading...</p> : null}
      {!loading && !error && list.length === 0 ? <p className="dropdown__state">No notifications</p> : null}
      <ul className="notification-list">
        {list.map((n) => (
          <li key={n._id}>
            <button
              type="button"
              className={`notification-item ${n.read ? '' : 'notification-item--unread'}`}
              onClick={() => open(n)}
            >
              <Avatar name={n.sender?.name || 'User'} src={n.sender?.avatar} size={32} />
              <span className="notification-item__body">
                <span className="notification-item__text">{notificationText(n)}</span>
                <span className="notification-item__time">{relativeTime(n.createdAt)}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
