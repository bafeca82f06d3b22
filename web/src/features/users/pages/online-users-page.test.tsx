import { screen } from '@testing-library/react';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders } from '@/test/render';
import OnlineUsersPage from './online-users-page';

describe('online users page', () => {
  it('lists the signed-in users online with the live count', async () => {
    mockApi.on('GET', '/user/online', { body: { users: [{ _id: 'u1', name: 'Ada' }], guests: 1, count: 2 } });
    renderWithProviders(<OnlineUsersPage />, { preloadedState: { socket: { status: 'connected', onlineCount: 2, error: null } } });
    expect(await screen.findByRole('link', { name: 'Ada' })).toHaveAttribute('href', '/author-profile/u1');
    expect(screen.getByText('· 1 signed in, 1 guest', { exact: false })).toBeInTheDocument();
    expect(screen.getByTestId('online-page-count')).toHaveTextContent('2');
  });

  it('shows the error when the list is unavailable', async () => {
    mockApi.on('GET', '/user/online', { status: 404 });
    renderWithProviders(<OnlineUsersPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch users');
  });
});
