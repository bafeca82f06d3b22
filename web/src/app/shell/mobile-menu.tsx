import { Link } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { selectSessionUnconfirmed } from '@/features/auth';
import { accountLinks, useLogout } from './avatar-menu';

/** The hamburger panel under 1024 px. */
export function MobileMenu({ onClose }: { onClose: () => void }) {
  const { isAuthenticated, user, role } = useAppSelector((state) => state.auth);
  const sessionUnconfirmed = useAppSelector(selectSessionUnconfirmed);
  const doLogout = useLogout();
  return (
    <nav className="mobile-menu" aria-label="Main menu" id="mobile-menu">
      <Link to="/" onClick={onClose}>
        Home
      </Link>
      <Link to="/users" onClick={onClose}>
        Online users
      </Link>
      {isAuthenticated && user ? (
        <>
          <Link to="/createPost" onClick={onClose}>
            Write
          </Link>
          <Link to="/message-box" onClick={onClose}>
            Messages
          </Link>
          {accountLinks(user._id, role === 'admin').map((item) => (
            <Link key={item.to} to={item.to} onClick={onClose}>
              {item.label}
            </Link>
          ))}
          <button
            type="button"
            className="menu-item menu-item--danger"
            onClick={() => {
              onClose();
              void doLogout();
            }}
          >
            Logout
          </button>
        </>
      ) : (
        <>
          <Link to="/about" onClick={onClose}>
            About
          </Link>
          <Link to="/contact" onClick={onClose}>
            Contact
          </Link>
          {sessionUnconfirmed ? null : (
            <>
              <Link to="/login" onClick={onClose}>
                Login
              </Link>
              <Link to="/signup" onClick={onClose}>
                Sign Up
              </Link>
            </>
          )}
        </>
      )}
    </nav>
  );
}
