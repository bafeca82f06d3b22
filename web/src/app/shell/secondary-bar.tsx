import { useRef } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { useScrollHints } from '@/components/use-scroll-hints';
import { CategoriesDropdown } from '@/features/categories';

/** Pages on which the secondary bar is hidden. */
export const SECONDARY_BAR_HIDDEN = ['/user', '/user-setting', '/createPost', '/author-profile', '/bookmark', '/admin'];

export function isSecondaryBarHidden(pathname: string): boolean {
  return SECONDARY_BAR_HIDDEN.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

export function SecondaryBar() {
  const { pathname } = useLocation();
  if (isSecondaryBarHidden(pathname)) return null;
  return <SectionsBar />;
}

/**
 * The row of sections. On a narrow screen it scrolls sideways: a fade and an arrow button at
 * each edge with more behind it say so (the arrows also scroll it, for a mouse).
 */
function SectionsBar() {
  const row = useRef<HTMLDivElement>(null);
  const { before, after, scrollBy } = useScrollHints(row);
  return (
    <nav className={`secondary-bar ${before ? 'secondary-bar--more-before' : ''} ${after ? 'secondary-bar--more-after' : ''}`} aria-label="Sections" data-testid="secondary-bar">
      {before ? (
        <button type="button" className="secondary-bar__more secondary-bar__more--before" aria-label="Scroll sections left" tabIndex={-1} onClick={() => scrollBy(-1)}>
          ‹
        </button>
      ) : null}
      {after ? (
        <button type="button" className="secondary-bar__more secondary-bar__more--after" aria-label="Scroll sections right" tabIndex={-1} onClick={() => scrollBy(1)}>
          ›
        </button>
      ) : null}
      <div className="secondary-bar__inner" ref={row}>
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
