import { NavLink, useLocation } from 'react-router-dom';
import { CategoriesDropdown } from '@/features/categories';

/** Pages on which the secondary bar is hidden. */
export const SECONDARY_BAR_HIDDEN = ['/user', '/user-setting', '/createPost', '/author-profile', '/bookmark', '/admin'];

export function isSecondaryBarHidden(pathname: string): boolean {
  return SECONDARY_BAR_HIDDEN.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

export function SecondaryBar() {
  const { pathname } = useLocation();
  if (isSecondaryBarHidden(pathname)) return null;
  return (
    <nav className="secondary-bar" aria-label="Sections" data-testid="secondary-bar">
      <div className="secondary-bar__inner">
        <CategoriesDropdown />
        <NavLink to="/" end className="nav-link">
          Home
        </NavLink>
        <NavLink to="/users" className="nav-link">
          Online
        </NavLink>
        <NavLink to="/about" className="nav-link">
          About
        </NavLink>
        <NavLink to="/contact" className="nav-link">
          Contact
        </NavLink>
      </div>
    </nav>
  );
}
