import { act, screen } from '@testing-library/react';
import { socketEvents } from '@/features/socket';
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

  describe('live count changes', () => {
    let visibility: DocumentVisibilityState = 'visible';
    beforeEach(() => {
      vi.useFakeTimers();
      visibility = 'visible';
      vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('refetch the list at most once every 5 seconds, not on every broadcast', async () => {
      mockApi.on('GET', '/user/online', { body: { users: [], guests: 0, count: 0 } });
      const { store } = renderWithProviders(<OnlineUsersPage />);
      await act(() => vi.advanceTimersByTimeAsync(0));
      expect(mockApi.calls('GET', '/user/online')).toHaveLength(1);
      for (let i = 1; i <= 10; i += 1) {
        act(() => {
          store.dispatch(socketEvents.onlineUsersCountReceived(i));
        });
        await act(() => vi.advanceTimersByTimeAsync(200));
      }
      // Ten broadcasts in two seconds: nothing yet (the first fetch was under 5 s ago).
      expect(mockApi.calls('GET', '/user/online')).toHaveLength(1);
      await act(() => vi.advanceTimersByTimeAsync(3500));
      expect(mockApi.calls('GET', '/user/online')).toHaveLength(2);
      await act(() => vi.advanceTimersByTimeAsync(10_000));
      expect(mockApi.calls('GET', '/user/online')).toHaveLength(2);
    });

    it('wait while the page is hidden and refetch once when it is shown again', async () => {
      mockApi.on('GET', '/user/online', { body: { users: [], guests: 0, count: 0 } });
      const { store } = renderWithProviders(<OnlineUsersPage />);
      await act(() => vi.advanceTimersByTimeAsync(0));
      visibility = 'hidden';
      document.dispatchEvent(new Event('visibilitychange'));
      act(() => {
        store.dispatch(socketEvents.onlineUsersCountReceived(7));
      });
      await act(() => vi.advanceTimersByTimeAsync(20_000));
      expect(mockApi.calls('GET', '/user/online')).toHaveLength(1);
      visibility = 'visible';
      act(() => {
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await act(() => vi.advanceTimersByTimeAsync(0));
      expect(mockApi.calls('GET', '/user/online')).toHaveLength(2);
    });
  });
});
