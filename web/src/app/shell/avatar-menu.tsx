import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
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
    { to: '/my-series', label: 'My series' },
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

/**
 * The account menu (the WAI-ARIA menu button pattern): Enter, Space or ArrowDown on the button
 * open it on the first item, ArrowUp on the last; ArrowUp/ArrowDown (wrapping), Home and End move
 * between items; Escape closes it and gives focus back to the button; Tab closes it.
 */
export function AvatarMenu() {
  const user = useAppSelector((state) => state.auth.user);
  const role = useAppSelector((state) => state.auth.role);
  const avatar = useAppSelector((state) => state.users.profile?.avatar ?? null);
  const [open, setOpen] = useState(false);
  const [focusOn, setFocusOn] = useState<'first' | 'last'>('first');
  const ref = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useClickOutside(ref, close, open);
  const doLogout = useLogout();

  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    if (!open) return;
    const list = items();
    (focusOn === 'last' ? list[list.length - 1] : list[0])?.focus();
  }, [open, focusOn]);

  if (!user) return null;

  const openAt = (where: 'first' | 'last') => {
    setFocusOn(where);
    setOpen(true);
  };

  const onButtonKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      openAt('first');
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAt('last');
    }
  };

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    let next = -1;
    if (event.key === 'ArrowDown') next = (at + 1) % list.length;
    else if (event.key === 'ArrowUp') next = (at - 1 + list.length) % list.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = list.length - 1;
    else if (event.key === 'Escape') {
      event.preventDefault();
      close();
      buttonRef.current?.focus();
      return;
    } else if (event.key === 'Tab') {
      close();
      return;
    }
    if (next >= 0) {
      event.preventDefault();
      list[next]?.focus();
    }
  };

  return (
    <div className="menu-anchor" ref={ref}>
      <button
        ref={buttonRef}
        type="button"
        className="avatar-button"
        aria-label="Account menu"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? 'account-menu' : undefined}
        onKeyDown={onButtonKey}
        onClick={() => (open ? close() : openAt('first'))}
      >
        <Avatar name={user.name} src={avatar} size={34} />
      </button>
      {open ? (
        <div className="dropdown account-menu">
          <div className="account-menu__who">
            <strong>{user.name}</strong>
            <small className="muted">{user.email}</small>
          </div>
          {/* Arrow keys bubble up from the focused item (roving focus): the menu itself is not a stop. */}
          {/* eslint-disable-next-line jsx-a11y/interactive-supports-focus */}
          <div id="account-menu" ref={menuRef} role="menu" aria-label="Account" className="account-menu__items" onKeyDown={onMenuKey}>
            {accountLinks(user._id, role === 'admin').map((item) => (
              <Link key={item.to} to={item.to} role="menuitem" tabIndex={-1} className="menu-item" onClick={close}>
                {item.label}
              </Link>
            ))}
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="menu-item menu-item--danger"
              onClick={() => {
                close();
                void doLogout();
              }}
            >
              Logout
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
