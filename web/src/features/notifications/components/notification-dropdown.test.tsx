import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { initialNotificationsState } from '../notifications-slice';
import { NotificationBell } from './notification-bell';

const item = { _id: 'n1', type: 'like', read: false, createdAt: new Date().toISOString(), sender: { name: 'Bo' }, post: { title: 'Rust' } };

describe('notification dropdown', () => {
  it('shows NOTIFICATIONS, View All, Mark All Read disabled when empty, and No notifications', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    mockApi.on('GET', '/notification/notifications', async () => {
      await gate;
      return { body: { notifications: [], total: 0 } };
    });
    renderWithProviders(<NotificationBell />, { preloadedState: { auth: signedInAuth() } });
    await userEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    const panel = screen.getByRole('region', { name: 'Notifications list' });
    expect(within(panel).getByText('NOTIFICATIONS')).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'View All' })).toHaveAttribute('href', '/message-box');
    expect(within(panel).getByText('Loading...')).toBeInTheDocument();
    release();
    expect(await within(panel).findByText('No notifications')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Mark All Read' })).toBeDisabled();
    expect(panel).toHaveStyle({ maxHeight: '400px' });
  });

  it('lists items with text and relative time; clicking marks read and follows the link', async () => {
    mockApi.on('GET', '/notification/notifications', {
      body: { notifications: [item, { _id: 'n2', type: 'admin', read: true, content: 'Hello', createdAt: null }], total: 2 },
    });
    mockApi.on('PATCH', '/notification/mark-as-read/n1', { body: { notification: { ...item, read: true } } });
    mockApi.on('GET', '/notification/unread-count', { body: { count: 0 } });
    renderWithProviders(<NotificationBell />, {
      preloadedState: { auth: signedInAuth(), notifications: { ...initialNotificationsState, unreadCount: 1 } },
    });
    expect(screen.getByTestId('unread-badge')).toHaveTextContent('1');
    await userEvent.click(screen.getByRole('button', { name: 'Notifications, 1 unread' }));
    expect(await screen.findByText('Bo liked your post "Rust"')).toBeInTheDocument();
    expect(screen.getByText('Admin: Hello')).toBeInTheDocument();
    expect(screen.getByText('Unknown time')).toBeInTheDocument();
    expect(screen.getByText('just now')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark All Read' })).toBeEnabled();
    await userEvent.click(screen.getByText('Bo liked your post "Rust"'));
    expect(screen.getByTestId('location')).toHaveTextContent('/message-box?type=post&id=n1');
    await waitFor(() => expect(mockApi.calls('PATCH', '/notification/mark-as-read/n1')).toHaveLength(1));
    expect(screen.queryByTestId('unread-badge')).not.toBeInTheDocument();
  });

  it('shows the error', async () => {
    mockApi.on('GET', '/notification/notifications', { status: 404 });
    renderWithProviders(<NotificationBell />, { preloadedState: { auth: signedInAuth() } });
    await userEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('Failed to fetch notifications')).toBeInTheDocument();
  });

  it('shows a socket error', async () => {
    mockApi.on('GET', '/notification/notifications', { body: { notifications: [], total: 0 } });
    renderWithProviders(<NotificationBell />, {
      preloadedState: { auth: signedInAuth(), socket: { status: 'disconnected', onlineCount: 0, error: 'websocket error' } },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(screen.getByText('Live updates unavailable: websocket error')).toBeInTheDocument();
  });
});
