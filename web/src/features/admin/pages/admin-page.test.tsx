import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth, testAdmin } from '@/test/render';
import { toggleBlockUser } from '../admin-slice';
import { AdminPage } from './admin-page';

describe('the dashboard', () => {
  it("a status line ('User blocked') stays with its section and is gone in the next one", async () => {
    mockApi.on('GET', '/user/feedback/all', { body: { feedbacks: [], total: 0 } });
    mockApi.on('GET', '/admin/settings', { body: { settings: { requireAdminTwoFactor: false } } });
    const user = userEvent.setup();
    const { store } = renderWithProviders(<AdminPage />, {
      route: '/admin?section=export',
      preloadedState: { auth: signedInAuth({ user: testAdmin, role: 'admin' }) },
    });
    await screen.findByRole('navigation', { name: 'Dashboard sections' });
    act(() => {
      store.dispatch(toggleBlockUser.fulfilled({ userId: 'u2', message: 'User blocked', data: null }, 'req-1', 'u2'));
    });
    expect(screen.getByRole('status')).toHaveTextContent('User blocked');
    await user.click(screen.getByRole('link', { name: 'Notices & feedback' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Notices and feedback' })).toBeInTheDocument();
    expect(screen.queryByText('User blocked')).not.toBeInTheDocument();
    expect(store.getState().admin.message).toBeNull();
  });
});
