import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { detectAdBlocker } from '@/features/ad-blocker/detect-ad-blocker';
import { mockApi } from '@/test/mock-api';
import { lastFakeSocket } from '@/test/fake-socket';
import { mockAppStartup, renderApp, signedInAuth, testAdmin, testUser } from '@/test/render';

/** Moves the fake clock (synchronously, as a user's wait would), then lets React apply what that caused. */
function advance(ms: number) {
  return act(() => {
    vi.advanceTimersByTime(ms);
    return Promise.resolve();
  });
}

async function ready() {
  await screen.findByRole('banner');
  await waitFor(() => expect(screen.queryByTestId('loading-overlay')).not.toBeInTheDocument());
}

/** The socket opens after the first paint, when the page is idle (lib/idle.ts). */
async function socketOpened() {
  return waitFor(() => lastFakeSocket());
}

describe('the shell, logged out', () => {
  it('shows the logo, theme toggle, online indicator, search, Login and Sign Up', async () => {
    mockAppStartup();
    renderApp('/about');
    await ready();
    expect(screen.getByRole('link', { name: 'Pressroom home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/signup');
    expect(screen.getByPlaceholderText('Search articles or users...')).toBeInTheDocument();
    expect(screen.getByTestId('theme-toggle')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Write' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Notifications/ })).not.toBeInTheDocument();
  });

  it("shows 'Logo failed to load.' when the logo image fails", async () => {
    mockAppStartup();
    renderApp('/about');
    await ready();
    const logo = screen.getByRole('link', { name: 'Pressroom home' });
    fireEvent.error(logo.querySelector('img')!);
    expect(within(logo).getByText('Logo failed to load.')).toBeInTheDocument();
  });

  it("shows the online count live: grey at 0, pulsing green at 1 or more, linking to /users", async () => {
    mockAppStartup();
    renderApp('/about');
    await ready();
    await socketOpened();
    const indicator = screen.getByTestId('online-indicator');
    expect(indicator).toHaveAttribute('href', '/users');
    expect(indicator).toHaveTextContent('0 online');
    expect(indicator).not.toHaveClass('online-indicator--active');
    act(() => lastFakeSocket().fire('onlineUsersCount', 3));
    expect(indicator).toHaveTextContent('3 online');
    expect(indicator).toHaveClass('online-indicator--active');
    expect(indicator.querySelector('.online-dot--pulse')).not.toBeNull();
  });

  it('connects the socket as a guest (no token) once the session is known', async () => {
    mockAppStartup();
    renderApp('/about');
    await ready();
    await socketOpened();
    expect(sentAuth(lastFakeSocket().options)).toEqual({});
  });

  it('shows the country flag and name of the location', async () => {
    mockAppStartup();
    mockApi.on('GET', '/user/ip-location', {
      body: { location: { latitude: 1, longitude: 2, city: 'Pune', country: 'India', state: 'MH', pincode: '1', countryCode: 'IN' } },
    });
    renderApp('/about');
    await ready();
    expect(await screen.findByText('India')).toBeInTheDocument();
    expect(screen.getByText('🇮🇳', { exact: false })).toBeInTheDocument();
  });

  it("shows 'Viewing as guest. Log in for full features.' when the session expired", async () => {
    mockAppStartup();
    localStorage.setItem('jwt', 'expired');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    mockApi.on('GET', '/auth/check', { status: 401, body: { message: 'Session expired' } });
    renderApp('/about');
    await ready();
    expect(await screen.findByText('Viewing as guest. Log in for full features.')).toBeInTheDocument();
  });

  it('keeps the session when the check fails for another reason than a 401, and tries again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      mockAppStartup({ signedIn: true });
      localStorage.setItem('jwt', 'token-1');
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      mockApi.on('GET', '/auth/check', { body: { ...testUser, token: 'token-1', isAccountVerified: true } });
      mockApi.on('GET', '/auth/check', { status: 503, body: { message: 'Service unavailable' } }, { once: true });
      renderApp('/about');
      await ready();
      await waitFor(() => expect(mockApi.calls('GET', '/auth/check')).toHaveLength(1));
      await act(() => vi.advanceTimersByTimeAsync(100));
      expect(screen.queryByText('Viewing as guest. Log in for full features.')).not.toBeInTheDocument();
      expect(localStorage.getItem('jwt')).toBe('token-1');
      await act(() => vi.advanceTimersByTimeAsync(3000));
      expect(mockApi.calls('GET', '/auth/check')).toHaveLength(2);
      expect(await screen.findByRole('link', { name: 'Write' })).toBeInTheDocument();
      expect(screen.queryByText('Viewing as guest. Log in for full features.')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('"Skip to content" is the first thing Tab reaches and moves focus to the page', async () => {
    mockAppStartup();
    renderApp('/about');
    await ready();
    document.body.focus();
    await userEvent.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveFocus();
    expect(skip).toHaveAttribute('href', '#main');
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('the theme toggle switches light/dark and remembers it', async () => {
    mockAppStartup();
    renderApp('/about');
    await ready();
    expect(document.documentElement.dataset.theme).toBe('light');
    await userEvent.click(screen.getByTestId('theme-toggle'));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
  });

  it('the cookie consent bar stores the choice locally (guests send nothing)', async () => {
    mockAppStartup();
    renderApp('/about');
    await ready();
    const bar = screen.getByRole('region', { name: 'Cookie consent' });
    expect(within(bar).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    await userEvent.click(within(bar).getByRole('button', { name: 'Decline' }));
    expect(localStorage.getItem('userCookieConsent')).toBe('false');
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument();
    expect(mockApi.calls('POST', '/user/consent')).toHaveLength(0);
  });

  it('shows the ad-blocker screen when one is detected', async () => {
    vi.mocked(detectAdBlocker).mockResolvedValueOnce(true);
    mockAppStartup();
    renderApp('/about');
    expect(await screen.findByRole('alertdialog', { name: 'Ad blocker detected' })).toBeInTheDocument();
  });

  it('shows no Google promo card when the server has no Google client id (sign-in with Google would not work)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      mockAppStartup();
      mockApi.on('GET', '/config/public', { body: { googleClientId: null } });
      renderApp('/about');
      await ready();
      await advance(31_000);
      // The card's code (and its question to the server) comes once it is due.
      await waitFor(() => expect(mockApi.calls('GET', '/config/public').length).toBeGreaterThan(0));
      await advance(100);
      expect(screen.queryByRole('heading', { name: 'Sign in with Google' })).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the Google promo card to guests after 30 seconds when Google sign-in is configured', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      mockAppStartup();
      mockApi.on('GET', '/config/public', { body: { googleClientId: 'client-123' } });
      const renderButton = vi.fn();
      window.google = { accounts: { id: { initialize: vi.fn(), renderButton } } };
      renderApp('/about');
      await ready();
      await advance(29_000);
      expect(screen.queryByRole('heading', { name: 'Sign in with Google' })).not.toBeInTheDocument();
      await advance(1_000);
      expect(await screen.findByRole('heading', { name: 'Sign in with Google' })).toBeInTheDocument();
      await waitFor(() => expect(renderButton).toHaveBeenCalled());
    } finally {
      delete window.google;
      vi.useRealTimers();
    }
  });
});

describe('the shell while the server is away', () => {
  it('a protected page says it cannot connect (not an endless spinner), the header offers no Login, and Try again opens the page', async () => {
    mockAppStartup({ signedIn: true });
    localStorage.setItem('jwt', 'token-1');
    mockApi.on('GET', '/auth/check', { status: 503, body: { message: 'Service unavailable' } });
    const { router } = renderApp('/bookmark');
    expect(await screen.findByRole('heading', { name: "Can't connect to server. Please try again." })).toBeInTheDocument();
    expect(screen.queryByTestId('loading-overlay')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign Up' })).not.toBeInTheDocument();
    expect(screen.getByText('Reconnecting...')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/bookmark');

    mockApi.on('GET', '/auth/check', { body: { ...testUser, token: 'token-1', isAccountVerified: true } });
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: "Can't connect to server. Please try again." })).not.toBeInTheDocument());
    expect(await screen.findByRole('button', { name: 'Account menu' })).toBeInTheDocument();
    expect(screen.queryByText('Reconnecting...')).not.toBeInTheDocument();
  });
});

describe('the shell, logged in', () => {
  it('shows Write, the bell with its unread badge and the avatar menu', async () => {
    mockAppStartup({ signedIn: true });
    mockApi.on('GET', '/notification/unread-count', { body: { count: 4 } });
    renderApp('/about', { preloadedState: { auth: signedInAuth() } });
    await ready();
    expect(screen.getByRole('link', { name: 'Write' })).toHaveAttribute('href', '/createPost');
    expect(await screen.findByTestId('unread-badge')).toHaveTextContent('4');
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Account menu' }));
    const menu = screen.getByRole('menu', { name: 'Account' });
    const items = within(menu).getAllByRole('menuitem').map((el) => el.textContent);
    expect(items).toEqual(['Studio', 'Profile', 'Settings', 'Bookmarks', 'My series', 'My subscriptions', 'Plans & earnings', 'Contact', 'About', 'Logout']);
    expect(within(menu).getByRole('menuitem', { name: 'Studio' })).toHaveAttribute('href', `/author-profile/${testUser._id}`);
  });

  it('joins the user room with the token', async () => {
    mockAppStartup({ signedIn: true });
    renderApp('/about', { preloadedState: { auth: signedInAuth() } });
    await ready();
    const socket = await socketOpened();
    expect(sentAuth(socket.options)).toEqual({ token: 'token-1' });
    act(() => socket.serverConnect());
    expect(socket.emitted).toContainEqual(['join', testUser._id]);
  });

  it('shows Admin Panel to administrators and joins adminRoom', async () => {
    mockAppStartup({ signedIn: true });
    renderApp('/about', { preloadedState: { auth: signedInAuth({ user: testAdmin, role: 'admin' }) } });
    await ready();
    await userEvent.click(screen.getByRole('button', { name: 'Account menu' }));
    expect(screen.getByRole('menuitem', { name: 'Admin Panel' })).toHaveAttribute('href', '/admin');
    await socketOpened();
    act(() => lastFakeSocket().serverConnect());
    expect(lastFakeSocket().emitted).toContainEqual(['join', 'adminRoom']);
  });

  it('Logout goes to /login and forgets the token', async () => {
    mockAppStartup({ signedIn: true });
    mockApi.on('POST', '/auth/logout', { body: { message: 'Logged out' } });
    const { router } = renderApp('/about', { preloadedState: { auth: signedInAuth() } });
    await ready();
    await userEvent.click(screen.getByRole('button', { name: 'Account menu' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('jwt')).toBeNull();
  });

  it("shows the yellow unverified bar with Verify Now for unverified users", async () => {
    mockAppStartup({ signedIn: true });
    renderApp('/about', { preloadedState: { auth: signedInAuth({ isAccountVerified: false }) } });
    await ready();
    const bar = await screen.findByTestId('unverified-bar');
    expect(bar).toHaveTextContent('Your email is not verified. Please verify your account to continue enjoying all features.');
    expect(within(bar).getByRole('link', { name: 'Verify Now' })).toHaveAttribute('href', '/verify');
  });

  it('sends the cookie choice to the server for signed-in users', async () => {
    mockAppStartup({ signedIn: true });
    renderApp('/about', { preloadedState: { auth: signedInAuth() } });
    await ready();
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(localStorage.getItem('userCookieConsent')).toBe('true');
    await waitFor(() => expect(mockApi.calls('POST', '/user/consent').map((c) => c.body)).toContainEqual({ consent: true }));
    // Once: the choice is saved by one path only.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mockApi.calls('POST', '/user/consent')).toHaveLength(1);
  });

  it('opens the feedback modal on showFeedbackPrompt', async () => {
    mockAppStartup({ signedIn: true });
    renderApp('/about', { preloadedState: { auth: signedInAuth() } });
    await ready();
    await socketOpened();
    act(() => lastFakeSocket().fire('showFeedbackPrompt'));
    expect(await screen.findByRole('dialog', { name: "We'd love your feedback!" })).toBeInTheDocument();
  });
});

describe('feedback on request', () => {
  it("opens 'Share Your Feedback' from the footer for signed-in users", async () => {
    mockAppStartup({ signedIn: true });
    renderApp('/about', { preloadedState: { auth: signedInAuth() } });
    await ready();
    await userEvent.click(screen.getByRole('button', { name: 'Give feedback' }));
    expect(await screen.findByRole('dialog', { name: 'Share Your Feedback' }, { timeout: 10_000 })).toBeInTheDocument();
  }, 20_000);
});

describe('the shell on mobile (< 1024 px)', () => {
  beforeEach(() => {
    window.matchMedia = ((query: string) => ({
      matches: query.includes('max-width: 1023px'),
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })) as unknown as typeof window.matchMedia;
  });

  it('shows a hamburger menu and a search toggle that opens a modal closing on Escape (focus back on the toggle) and locking scroll', async () => {
    mockAppStartup();
    renderApp('/about');
    await ready();
    expect(screen.queryByPlaceholderText('Search articles or users...')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    expect(within(menu).getByRole('link', { name: 'Login' })).toBeInTheDocument();
    expect(within(menu).getByRole('link', { name: 'Sign Up' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Open search' }));
    expect(screen.getByRole('dialog', { name: 'Search' })).toBeInTheDocument();
    expect(document.body.style.overflow).toBe('hidden');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Search' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open search' })).toHaveFocus();
    expect(document.body.style.overflow).toBe('');
  });
});

describe('the footer', () => {
  it('credits the IP geolocation data', async () => {
    mockAppStartup({ signedIn: false });
    renderApp('/about');
    await ready();
    const credit = screen.getByRole('link', { name: 'IP Geolocation by DB-IP' });
    expect(credit).toHaveAttribute('href', 'https://db-ip.com');
    expect(credit).toHaveAttribute('target', '_blank');
  });
});

/** What a socket sends in its handshake (its `auth` option is called at every connect). */
function sentAuth(options: unknown): object {
  let sent: object = {};
  (options as { auth: (cb: (d: object) => void) => void }).auth((d) => {
    sent = d;
  });
  return sent;
}
