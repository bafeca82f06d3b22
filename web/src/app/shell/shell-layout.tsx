import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { GooglePromoCard, GuestSessionBanner, UnverifiedEmailBar } from '@/features/auth';
import { BannerNotice } from '@/features/banner';
import { feedbackRequested } from '@/features/feedback';
import { PageOutlet } from './page-outlet';
import { SecondaryBar } from './secondary-bar';
import { TopBar } from './top-bar';

function useViewerRegions(): string[] {
  const profileRegion = useAppSelector((state) => state.users.profile?.region ?? null);
  const location = useAppSelector((state) => state.location.ipLocation);
  return [profileRegion, location?.country, location?.state, location?.countryCode].filter(
    (r): r is string => typeof r === 'string' && r !== '' && r !== 'Unknown',
  );
}

/** The root shell: top bar, secondary bar, the session bars and banner, the page, the footer. */
export function ShellLayout() {
  const regions = useViewerRegions();
  const dispatch = useAppDispatch();
  const isAuthenticated = useAppSelector((state) => state.auth.isAuthenticated);
  return (
    <div className="shell">
      <a
        href="#main"
        className="skip-link"
        onClick={(event) => {
          // Focus moves to the page itself, so Tab goes on from there (the address stays as it is).
          event.preventDefault();
          const main = document.getElementById('main');
          main?.focus();
          main?.scrollIntoView?.();
        }}
      >
        Skip to content
      </a>
      <TopBar />
      <SecondaryBar />
      <GuestSessionBanner />
      <UnverifiedEmailBar />
      <BannerNotice regions={regions} />
      <main className="shell__main" id="main" tabIndex={-1}>
        <PageOutlet />
      </main>
      <footer className="footer">
        <span>© {new Date().getFullYear()} Pressroom</span>
        <nav aria-label="Footer">
          <Link to="/about">About</Link>
          <Link to="/contact">Contact</Link>
          <Link to="/privacy">Privacy</Link>
          <Link to="/terms">Terms</Link>
          <a href="/feed.xml" type="application/atom+xml">
            Feed
          </a>
          {isAuthenticated ? (
            <button type="button" className="link-button footer__feedback" onClick={() => dispatch(feedbackRequested())}>
              Give feedback
            </button>
          ) : null}
        </nav>
        <a className="footer__credit" href="https://db-ip.com" target="_blank" rel="noopener noreferrer">
          IP Geolocation by DB-IP
        </a>
      </footer>
      <GooglePromoCard />
    </div>
  );
}

/** Screens outside the shell (sign up, log in, select category, reset password, not found). */
export function BareLayout() {
  return <PageOutlet />;
}
