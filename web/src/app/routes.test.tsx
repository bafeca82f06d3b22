import { act, screen, waitFor } from '@testing-library/react';
import { mockApi } from '@/test/mock-api';
import { guestAuth, mockAppStartup, renderApp, signedInAuth } from '@/test/render';
import { routes } from './routes';

vi.mock('@/lib/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/browser')>()),
  reloadPage: vi.fn(),
  scrollToTop: vi.fn(),
}));

// The terms page module fails to load, as a stale chunk would after a deploy.
vi.mock('@/features/info/pages/terms-page', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

const browser = await import('@/lib/browser');

function paths(list = routes, prefix = ''): string[] {
  return list.flatMap((r) => {
    const here = r.path ? `${prefix}/${r.path}`.replace('//', '/') : prefix;
    return [...(r.path ? [here] : []), ...(r.index ? ['/'] : []), ...paths(r.children ?? [], here)];
  });
}

describe('routes', () => {
  it('has every route of the spec', () => {
    expect(paths().sort()).toEqual(
      [
        '/',
        '/createPost',
        '/edit-post/:slug',
        '/delete-post/:id',
        '/category/:category',
        '/post/:slug',
        '/search',
        '/admin',
        '/about',
        '/contact',
        '/privacy',
        '/terms',
        '/user',
        '/user-setting',
        '/author-profile/:id',
        '/plans/:id',
        '/bookmark',
        '/my-subscriptions',
        '/series/:slug',
        '/my-series',
        '/acknowledge/:reportId',
        '/message-box',
        '/users',
        '/verify',
        '/tag/:tag',
        '/signup',
        '/login',
        '/select-category',
        '/reset-password',
        '/*',
      ].sort(),
    );
  });

  it('shows the splash for 1 second', async () => {
    mockAppStartup();
    const started = Date.now();
    renderApp('/about', { preloadedState: { auth: guestAuth() }, splash: true });
    expect(screen.getByTestId('splash')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('splash')).not.toBeInTheDocument(), { timeout: 2500 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(await screen.findByRole('heading', { name: 'About Pressroom' })).toBeInTheDocument();
  });

  it('shows the page-not-found screen for unknown paths', async () => {
    mockAppStartup();
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('/no/such/page')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });

  it("shows 'Error loading component' with Reload Page when a page fails to load, and reloads after 1.5 s", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockAppStartup();
    renderApp('/terms');
    expect(await screen.findByRole('heading', { name: 'Error loading component' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload Page' })).toBeInTheDocument();
    expect(browser.reloadPage).not.toHaveBeenCalled();
    await waitFor(() => expect(browser.reloadPage).toHaveBeenCalledTimes(1), { timeout: 2500 });
  });

  it('sends a guest from a protected page to /login and back after logging in', async () => {
    mockAppStartup();
    const { router } = renderApp('/bookmark');
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    mockAppStartup({ signedIn: true });
    mockApi.on('POST', '/auth/login', {
      body: { _id: 'u1', fullName: 'Ada', email: 'ada@example.com', role: 'user', token: 't', isAccountVerified: true },
    });
    const { default: userEvent } = await import('@testing-library/user-event');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret{Enter}');
    expect(await screen.findByRole('heading', { name: 'Bookmarks' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/bookmark');
  });

  it("shows 'Admin access required' to a signed-in non-administrator on /admin", async () => {
    mockAppStartup({ signedIn: true });
    renderApp('/admin', { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByRole('heading', { name: 'Admin access required' })).toBeInTheDocument();
  });

  it('scrolls to the top on each route change', async () => {
    mockAppStartup();
    const { router } = renderApp('/about', { preloadedState: { auth: guestAuth() } });
    await screen.findByRole('heading', { name: 'About Pressroom' });
    // The scroll is an effect of the route change: it may run a moment after the page shows.
    const calls = () => vi.mocked(browser.scrollToTop).mock.calls.length;
    await waitFor(() => expect(calls()).toBeGreaterThan(0));
    const before = calls();
    await act(() => router.navigate('/privacy'));
    await screen.findByRole('heading', { name: 'Privacy Policy' });
    await waitFor(() => expect(calls()).toBe(before + 1));
  });

  it.each([
    ['/user', false],
    ['/user-setting', false],
    ['/createPost', false],
    ['/author-profile/u1', false],
    ['/bookmark', false],
    ['/admin', false],
    ['/', true],
    ['/about', true],
  ])('the secondary bar on %s is shown: %s', async (path, shown) => {
    mockAppStartup({ signedIn: true });
    // What the people pages read.
    mockApi.on('GET', /^\/api\/user\/activity\//, { body: { activity: [] } });
    mockApi.on('GET', '/block/list', { body: { users: [] } });
    // What the settings page's account sections read.
    mockApi.on('GET', '/auth/2fa', { body: { enabled: false, recoveryCodesLeft: 0 } });
    mockApi.on('GET', '/auth/sessions', { body: { sessions: [] } });
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [] } });
    mockApi.on('GET', '/auth/security-log', { body: { events: [] } });
    // Its Developers section.
    mockApi.on('GET', '/keys', { body: { keys: [] } });
    mockApi.on('GET', '/keys/scopes', { body: { scopes: [] } });
    mockApi.on('GET', '/webhooks', { body: { webhooks: [] } });
    mockApi.on('GET', '/webhooks/event-types', { body: { eventTypes: [] } });
    mockApi.on('GET', '/user/export', { body: { exports: [] } });
    mockApi.on('GET', '/import', { body: { imports: [] } });
    // Its push notifications: the devices and which notifications they get.
    mockApi.on('GET', '/push/subscriptions', { body: { subscriptions: [] } });
    mockApi.on('GET', '/push/preferences', {
      body: { preferences: { replies: true, likes: true, newPosts: true, admin: true, money: true, banners: true, quietHours: { enabled: false, start: '22:00', end: '07:00', timeZone: 'UTC' } } },
    });
    mockApi.on('GET', '/follow/following', { body: { list: [], count: 0, page: 1, totalPages: 0 } });
    mockApi.on('GET', /^\/api\/user\/get-single-user\//, { body: { data: { _id: 'u1', name: 'Ada Lovelace', followersCount: 0, followingCount: 0, isFollowing: false, blockedByYou: false } } });
    mockApi.on('GET', /^\/api\/post\/user\/[^/]+\/posts$/, { body: { posts: [], total: 0 } });
    mockApi.on('GET', /^\/api\/subscription\/plans\/author\//, { body: { plans: [], count: 0 } });
    const { router } = renderApp(path, {
      preloadedState: { auth: signedInAuth({ user: { _id: 'a1', name: 'Ad Min', email: 'a@x', role: 'admin' }, role: 'admin' }) },
    });
    await screen.findByRole('banner');
    // The editor's module is large: give a lazy page time to load.
    await waitFor(() => expect(screen.queryByTestId('loading-overlay')).not.toBeInTheDocument(), { timeout: 10_000 });
    await screen.findByRole('heading', { level: 1 }, { timeout: 10_000 });
    expect(router.state.location.pathname).toBe(path);
    expect(Boolean(screen.queryByTestId('secondary-bar'))).toBe(shown);
  });
});
