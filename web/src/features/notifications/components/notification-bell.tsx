import { BellIcon } from '@/components/icons';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { useClickOutside } from '@/components/use-click-outside';
import { fetchNotifications, selectUnreadCount } from '../notifications-slice';
import { showAppBadge } from '../app-badge';
import { NotificationDropdown } from './notification-dropdown';

export function NotificationBell() {
  const dispatch = useAppDispatch();
  const unread = useAppSelector(selectUnreadCount);
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useClickOutside(ref, close, open);
  useEffect(() => showAppBadge(unread), [unread]);

  const toggle = () => {
    if (!open) void dispatch(fetchNotifications({ page: 1 }));
    setOpen(!open);
  };

  return (
    <div className="menu-anchor" ref={ref}>
      <button
        type="button"
        className="icon-button bell"
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        aria-expanded={open}
        aria-haspopup="true"
        onClick={toggle}
      >
        <BellIcon />
        {unread > 0 ? (
          <span className="badge" data-testid="unread-badge">
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </button>
      {open ? <NotificationDropdown onNavigate={close} /> : null}
    </div>
  );
}
