import { render, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, MemoryRouter, Route, RouterProvider, Routes, useLocation } from 'react-router-dom';
import { setSplashDone } from '@/app/app-root';
import { ROUTER_FUTURE, routes } from '@/app/routes';
import { setupStore, type AppStore, type RootState } from '@/app/store';
import { initialAuthState, type AuthState } from '@/features/auth/auth-slice';
import { mockApi } from './mock-api';

interface Options extends Omit<RenderOptions, 'queries'> {
  preloadedState?: Partial<RootState>;
  store?: AppStore;
  route?: string;
  /** Route pattern the element is mounted at (default '*'). */
  path?: string;
}

/** Shows the current location so tests can assert navigation. */
export function LocationDisplay() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

export function renderWithProviders(ui: ReactElement, options: Options = {}) {
  const { preloadedState, store = setupStore(preloadedState), route = '/', path = '*', ...rest } = options;
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <Provider store={store}>
        <MemoryRouter initialEntries={[route]} future={{ v7_startTransition: true, v7_relativeSplatPath: true }}>
          <Routes>
            <Route path={path} element={children} />
            {path === '*' ? null : <Route path="*" element={<div>elsewhere</div>} />}
          </Routes>
          <LocationDisplay />
        </MemoryRouter>
      </Provider>
    );
  }
  return { store, ...render(ui, { wrapper: Wrapper, ...rest }) };
}

/** Renders the whole app (all routes) at `route`, without the splash. */
export function renderApp(route: string, options: { preloadedState?: Partial<RootState>; splash?: boolean } = {}) {
  setSplashDone(!options.splash);
  const auth = options.preloadedState?.auth;
  if (auth?.isAuthenticated && auth.user) {
    // The app checks the stored session on start; answer it with the same user.
    localStorage.setItem('jwt', auth.token ?? 'token-1');
    mockApi.on('GET', '/auth/check', {
      body: { ...auth.user, token: auth.token ?? 'token-1', isAccountVerified: auth.isAccountVerified },
    });
  }
  const store = setupStore(options.preloadedState);
  const router = createMemoryRouter(routes, { initialEntries: [route], future: ROUTER_FUTURE });
  const result = render(
    <Provider store={store}>
      <RouterProvider router={router} future={{ v7_startTransition: true }} />
    </Provider>,
  );
  return { store, router, ...result };
}

export const testUser = { _id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com', role: 'user' as const };
export const testAdmin = { _id: 'a1', name: 'Grace Hopper', email: 'grace@example.com', role: 'admin' as const };

/** Auth state of a signed-in, verified user (override any field). */
export function signedInAuth(overrides: Partial<AuthState> = {}): AuthState {
  const user = overrides.user ?? testUser;
  return {
    ...initialAuthState(),
    user,
    role: user.role,
    isAuthenticated: true,
    token: 'token-1',
    isAccountVerified: true,
    authInitialized: true,
    ...overrides,
  };
}

export function guestAuth(overrides: Partial<AuthState> = {}): AuthState {
  return { ...initialAuthState(), token: null, authInitialized: true, ...overrides };
}

/**
 * The background calls the app makes on start, answered as a server without those features
 * would (404). Tests override the ones they care about with `mockApi.on` afterwards.
 */
export function mockAppStartup({ signedIn = false }: { signedIn?: boolean } = {}) {
  const notFound = { status: 404, body: { message: 'Not found', code: 'not_found' } };
  mockApi.on('GET', '/user/ip-location', notFound);
  mockApi.on('GET', '/bannerNotification/get-Notification', { body: { notifications: [] } });
  mockApi.on('GET', '/config/public', { body: { googleClientId: null } });
  mockApi.on('GET', '/public/posts', { body: { posts: [], total: 0, page: 1 } });
  mockApi.on('GET', '/post/latest-post/latest', { body: { posts: [], total: 0 } });
  mockApi.on('GET', '/post/trending-post/trending', { body: { posts: [], total: 0 } });
  mockApi.on('GET', /^\/api\/post\/count\//, { body: { count: 0 } });
  mockApi.on('POST', '/public/guest/visit', notFound);
  if (signedIn) {
    mockApi.on('GET', '/user/get-user', { body: { data: { ...testUser, region: 'global' } } });
    mockApi.on('GET', '/notification/unread-count', { body: { count: 0 } });
    mockApi.on('GET', '/user/feedback/check', { body: { shouldPrompt: false } });
    mockApi.on('POST', '/user/track-ip-location', { body: { location: { userId: testUser._id, coordinates: { lat: 0, lon: 0 }, city: 'Unknown' } } });
    mockApi.on('POST', '/user/consent', { body: { message: 'ok' } });
    mockApi.on('GET', /^\/api\/bannerNotification\/dismissed\//, { body: { dismissed: false } });
    mockApi.on('GET', '/post/get-post/bookmarks', { body: { posts: [] } });
    mockApi.on('GET', '/category/user-selected', { body: { categories: [] } });
    mockAdminLoad();
  }
}

/**
 * What an administrator's session loads as it joins adminRoom (the overview, the first pages of
 * contact messages and reports) and the dashboard's first section reads, answered empty.
 */
export function mockAdminLoad() {
  mockApi.on('GET', '/admin/overview', {
    body: {
      online: { count: 1, users: 1, guests: 0 },
      today: { since: new Date().toISOString(), signups: 0, posts: 0, reports: 0, contactMessages: 0 },
      unreadContactMessages: 0,
      openReports: 0,
      pendingAppeals: 0,
      totals: { users: 1, posts: 0 },
    },
  });
  mockApi.on('GET', '/admin/contact-messages', { body: { messages: [], total: 0, page: 1, totalPages: 0 } });
  mockApi.on('GET', '/admin/reports', { body: { reports: [], total: 0, page: 1, totalPages: 0 } });
  mockApi.on('GET', '/admin/settings', { body: { settings: { requireAdminTwoFactor: false } } });
  mockApi.on('GET', '/admin/analytics', {
    body: { traffic: { totalVisits: 0, totalTimeSpent: 0, uniqueUsersCount: 0, uniquePostsCount: 0 }, topPosts: [], topUsers: [], series: [] },
  });
}

/** A post page's support card and supporters list, answered as for a post that cannot be tipped. */
export function mockNoTips() {
  mockApi.on('GET', /^\/api\/tips\/options\//, {
    body: { enabled: false, reason: 'The writer does not take tips yet', currency: 'usd', suggestedAmounts: [], minimum: 50, maximum: 50000, platformFeePercent: 10, mode: 'test' },
  });
  mockApi.on('GET', /^\/api\/post\/[^/]+\/supporters$/, { body: { supporters: [], total: 0, page: 1, totalPages: 0, limit: 10 } });
}
