// Everything user-specific in the store belongs to the signed-in user: after a logout, an expired
// session or another account signing in, none of it may show.
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { login, logout } from '@/features/auth';
import { CategoriesDropdown, fetchCategories, fetchUserSelectedCategories } from '@/features/categories';
import { selectLocations, selectUserLocations } from '@/features/location';
import { selectNotificationList } from '@/features/notifications';
import { socketEvents } from '@/features/socket';
import { fetchCurrentUser } from '@/features/users';
import { mockApi, type MockRequest } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { setupStore } from './store';

const accounts = {
  'tok-a': { _id: 'ua', fullName: 'Ada A', email: 'a@example.com', role: 'user', token: 'tok-a', isAccountVerified: true },
  'tok-b': { _id: 'ub', fullName: 'Bea B', email: 'b@example.com', role: 'user', token: 'tok-b', isAccountVerified: true },
} as const;
const selected = { 'tok-a': [{ _id: 'ca', name: 'Anatomy', slug: 'anatomy' }], 'tok-b': [{ _id: 'cb', name: 'Baking', slug: 'baking' }] };

const tokenOf = (request: MockRequest) => (request.headers.get('Authorization') ?? '').replace('Bearer ', '') as keyof typeof accounts;

function mockServer() {
  mockApi.on('POST', '/auth/login', (request) => {
    const email = (request.body as { email: string }).email;
    return { body: email.startsWith('a') ? accounts['tok-a'] : accounts['tok-b'] };
  });
  mockApi.on('POST', '/auth/logout', { body: { message: 'Logged out' } });
  mockApi.on('GET', '/category/user-selected', (request) => ({ body: { categories: selected[tokenOf(request)] ?? [] } }));
  mockApi.on('GET', '/user/get-user', (request) => ({ body: { data: { _id: accounts[tokenOf(request)]._id, name: accounts[tokenOf(request)].fullName } } }));
}

describe('switching accounts in one tab', () => {
  it("shows B's categories, not A's, after A logs out and B logs in", async () => {
    mockServer();
    const store = setupStore();
    await store.dispatch(login({ email: 'a@example.com', password: 'pw' }));
    await store.dispatch(fetchUserSelectedCategories());
    expect(store.getState().categories.userSelectedCategories.map((c) => c.name)).toEqual(['Anatomy']);

    await store.dispatch(logout());
    await store.dispatch(login({ email: 'b@example.com', password: 'pw' }));
    await store.dispatch(fetchUserSelectedCategories());
    expect(store.getState().categories.userSelectedCategories.map((c) => c.name)).toEqual(['Baking']);
  });

  it("clears the profile, notifications, selection and follower locations on logout", async () => {
    mockServer();
    const store = setupStore();
    await store.dispatch(login({ email: 'a@example.com', password: 'pw' }));
    await store.dispatch(fetchCurrentUser());
    await store.dispatch(fetchUserSelectedCategories());
    store.dispatch(socketEvents.notificationReceived({ _id: 'n1', type: 'like', read: false, content: '', createdAt: '2026-01-01T00:00:00Z', user: 'ua' }));
    store.dispatch(socketEvents.userLocationUpdated({ userId: 'f1', coordinates: { lat: 1, lon: 2 }, city: 'X', country: 'Y', state: 'Z', pincode: '1' }));
    expect(store.getState().users.profile?._id).toBe('ua');
    expect(store.getState().notifications.unreadCount).toBe(1);

    await store.dispatch(logout());
    const state = store.getState();
    expect(state.users.profile).toBeNull();
    expect(selectNotificationList(state)).toEqual([]);
    expect(state.notifications.unreadCount).toBe(0);
    expect(state.categories.userSelectedCategories).toEqual([]);
    expect(selectLocations(state)).toEqual([]);
    expect(selectUserLocations(state)).toEqual([]);
  });

  it("keeps a signed-in user's categories on show when the all-categories fetch fails", async () => {
    mockApi.on('GET', '/category/user-selected', { body: { categories: selected['tok-a'] } });
    mockApi.on('GET', '/category/all-category', { status: 500 });
    const { store } = renderWithProviders(<CategoriesDropdown />, { preloadedState: { auth: signedInAuth() } });
    await userEvent.click(screen.getByRole('button', { name: 'Categories' }));
    expect(await screen.findByRole('button', { name: 'Anatomy' })).toBeInTheDocument();
    // Another screen (the editor's category picker) loads every category, and that fails.
    await act(() => store.dispatch(fetchCategories()));
    expect(screen.getByRole('button', { name: 'Anatomy' })).toBeInTheDocument();
    expect(screen.queryByText('Failed to load categories')).not.toBeInTheDocument();
  });
});
