import { CloseIcon, MenuIcon, SearchIcon } from '@/components/icons';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { AnimatedLogo } from '@/components/animated-logo';
import { useIsMobile } from '@/components/use-media-query';
import { selectSessionUnconfirmed } from '@/features/auth';
import { LocationBadge } from '@/features/location';
import { NotificationBell } from '@/features/notifications';
import { SearchBox, SearchModal } from '@/features/search';
import { OnlineIndicator } from '@/features/socket';
import { ThemeToggle } from '@/features/theme';
import { AvatarMenu } from './avatar-menu';
import { MobileMenu } from './mobile-menu';

export function TopBar() {
  const isAuthenticated = useAppSelector((state) => state.auth.isAuthenticated);
  const sessionUnconfirmed = useAppSelector(selectSessionUnconfirmed);
  const isMobile = useIsMobile();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  const from = { from: location.pathname + location.search };

  return (
    <header className="top-bar">
      <div className="top-bar__inner">
        {isMobile ? (
          <button
            type="button"
            className="icon-button"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
          </button>
        ) : null}
        <AnimatedLogo />
        <LocationBadge />
        <OnlineIndicator />
        <div className="top-bar__spacer">{isMobile ? null : <SearchBox />}</div>
        {isMobile ? (
          <button type="button" className="icon-button" aria-label="Open search" onClick={() => setSearchOpen(true)}>
            <SearchIcon />
          </button>
        ) : null}
        <ThemeToggle />
        {isAuthenticated ? (
          <>
            {isMobile ? null : (
              <Link to="/createPost" className="button button--small">
                Write
              </Link>
            )}
            <NotificationBell />
            <AvatarMenu />
          </>
        ) : sessionUnconfirmed ? (
          // A stored session the server could not check yet: neither Login nor Sign Up is right.
          <span className="top-bar__reconnecting muted small" role="status">
            Reconnecting...
          </span>
        ) : isMobile ? null : (
          <>
            <Link to="/login" state={from} className="button button--ghost button--small">
              Login
            </Link>
            <Link to="/signup" state={from} className="button button--small">
              Sign Up
            </Link>
          </>
        )}
      </div>
      {isMobile && menuOpen ? <MobileMenu onClose={() => setMenuOpen(false)} /> : null}
      {searchOpen ? <SearchModal onClose={() => setSearchOpen(false)} /> : null}
    </header>
  );
}
