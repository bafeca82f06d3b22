import { useCallback, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { useClickOutside } from '@/components/use-click-outside';
import { logout } from '@/features/auth';

export interface MenuLink {
  to: string;
  label: string;
}

/** The avatar menu items for a signed-in user, in the spec's order. */
export function accountLinks(userId: string, isAdmin: boolean): MenuLink[] {
  return [
    { to: `/author-profile/${userId}`, label: 'Studio' },
    { to: '/user', label: 'Profile' },
    { to: '/user-setting', label: 'Settings' },
    { to: '/bookmark', label: 'Bookmarks' },
    { to: '/my-subscriptions', label: 'My subscriptions' },
    { to: `/plans/${userId}`, label: 'Plans & earnings' },
    { to: '/contact', label: 'Contact' },
    ...(isAdmin ? [{ to: '/admin', label: 'Admin Panel' }] : []),
    { to: '/about', label: 'About' },
  ];
}

export function useLogout() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return async () => {
    await dispatch(logout());
    navigate('/login');
  };
}

export function AvatarMenu() {
  const user = useAppSelector((state) => state.auth.user);
  const role = useAppSelector((state) => state.auth.role);
  const avatar = useAppSelector((state) => state.users.profile?.avatar ?? null);
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useClickOutside(ref, close, open);
  const doLogout = useLogout();
  if (!user) return null;

  return (
    <div className="menu-anchor" ref={ref}>
      <button type="button" className="avatar-button" aria-label="Account menu" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Avatar name={user.name} src={avatar} size={34} />
      </button>
      {open ? (
        <div className="dropdown account-menu" role="menu" aria-label="Account">
          <div className="account-menu__who">
            <strong>{user.name}</strong>
            <small className="muted">{user.email}</small>
          </div>
          {accountLinks(user._id, role === 'admin').map((item) => (
            <Link key={item.to} to={item.to} role="menuitem" className="menu-item" onClick={close}>
              {item.label}
            </Link>
          ))}
          <button
            type="button"
            role="menuitem"
            className="menu-item menu-item--danger"
            onClick={() => {
              close();
              void doLogout();
            }}
          >
            Logout
          </button>
        </div>
      ) : null}
    </div>
  );
}
