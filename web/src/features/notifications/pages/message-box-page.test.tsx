import { screen } from '@testing-library/react';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import MessageBoxPage from './message-box-page';

const adminNotice = (i: number) => ({ _id: `a${i}`, type: 'admin', content: `Notice ${i}`, read: true, createdAt: '2024-01-01T00:00:00Z' });
const like = { _id: 'l1', type: 'like', read: false, sender: { name: 'Bea' }, post: { title: 'Old post' }, createdAt: '2023-01-01T00:00:00Z' };

/** A server with 20 newer administrator notices and one older like, filtering by `type` itself. */
function mockInbox() {
  mockApi.on('GET', '/notification/notifications', (request) => {
    const type = request.url.searchParams.get('type');
    const all = [...Array.from({ length: 20 }, (_, i) => adminNotice(i)), like];
    const kept = type === 'post' ? [like] : type === 'admin' ? all.filter((n) => n.type === 'admin') : all;
    const page = Number(request.url.searchParams.get('page') ?? 1);
    return { body: { notifications: kept.slice((page - 1) * 20, page * 20), total: kept.length, page } };
  });
}

describe('the message box', () => {
  it('asks the server for type=post and shows a match that is not on the first unfiltered page', async () => {
    mockInbox();
    renderWithProviders(<MessageBoxPage />, { route: '/message-box?type=post', preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByText('Bea liked your post "Old post"')).toBeInTheDocument();
    expect(screen.queryByText('No notifications')).not.toBeInTheDocument();
    expect(mockApi.calls('GET', '/notification/notifications').at(-1)?.url.searchParams.get('type')).toBe('post');
  });

  it('asks for type=admin and says No notifications when the server has none of that kind', async () => {
    mockApi.on('GET', '/notification/notifications', { body: { notifications: [], total: 0, page: 1 } });
    renderWithProviders(<MessageBoxPage />, { route: '/message-box?type=admin', preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByText('No notifications')).toBeInTheDocument();
    expect(mockApi.calls('GET', '/notification/notifications')[0].url.searchParams.get('type')).toBe('admin');
  });
});
