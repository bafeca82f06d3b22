import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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

describe('the message box, as a place to read and answer', () => {
  const notice = { _id: 'n1', type: 'admin', content: 'Please add sources', read: false, sender: { name: 'Ada Admin' }, createdAt: '2024-01-01T00:00:00Z' };
  const liked = { _id: 'l2', type: 'like', read: false, sender: { name: 'Bea' }, post: { title: 'Hello' }, navigateTo: '/post/hello', createdAt: '2024-01-01T00:00:00Z' };
  const forwarded = { _id: 'r1', type: 'admin', content: 'Your post was reported', read: true, navigateTo: '/acknowledge/rep1', createdAt: '2024-01-01T00:00:00Z' };
  const comment = { _id: 'c1', type: 'comment', read: true, sender: { name: 'Cy' }, post: { title: 'Hi' }, createdAt: '2024-01-01T00:00:00Z' };

  function serve(list: object[], unreadCount = 2) {
    mockApi.on('GET', '/notification/notifications', { body: { notifications: list, total: list.length, page: 1, unreadCount } });
  }

  it('every item links to its navigateTo, else to the inbox by kind; opening an unread one marks it read', async () => {
    serve([liked, forwarded, comment, notice]);
    mockApi.on('PATCH', '/notification/mark-as-read/l2', { body: { notification: { ...liked, read: true } } });
    mockApi.on('GET', '/notification/unread-count', { body: { count: 1 } });
    const user = userEvent.setup();
    renderWithProviders(<MessageBoxPage />, { route: '/message-box', preloadedState: { auth: signedInAuth() } });
    const like = await screen.findByRole('link', { name: 'Bea liked your post "Hello"' });
    expect(like).toHaveAttribute('href', '/post/hello');
    expect(screen.getByRole('link', { name: 'Admin: Your post was reported' })).toHaveAttribute('href', '/acknowledge/rep1');
    expect(screen.getByRole('link', { name: 'Cy commented on your post "Hi"' })).toHaveAttribute('href', '/message-box?type=post&id=c1');
    expect(screen.getByRole('link', { name: 'Admin: Please add sources' })).toHaveAttribute('href', '/message-box?type=admin');
    await user.click(like);
    expect(screen.getByTestId('location')).toHaveTextContent('/post/hello');
    expect(mockApi.calls('PATCH', '/notification/mark-as-read/l2')).toHaveLength(1);
  });

  it("takes the unread badge's count from the server's answer", async () => {
    serve([liked], 6);
    const { store } = renderWithProviders(<MessageBoxPage />, { route: '/message-box', preloadedState: { auth: signedInAuth() } });
    await screen.findByRole('link', { name: 'Bea liked your post "Hello"' });
    expect(store.getState().notifications.unreadCount).toBe(6);
  });

  it("answers an administrator's notice: Reply, the reply shown under it; an empty reply says 'Missing notificationId or content'", async () => {
    serve([notice, liked]);
    mockApi.on('PATCH', '/notification/mark-as-read/n1', { body: { notification: { ...notice, read: true } } });
    mockApi.on('GET', '/notification/unread-count', { body: { count: 1 } });
    mockApi.on('POST', '/notification/reply', (request) => ({
      status: 201,
      body: {
        notification: { _id: 'rep', type: 'admin_reply', content: (request.body as { content: string }).content, read: false, replyTo: 'n1', createdAt: new Date().toISOString() },
      },
    }));
    const user = userEvent.setup();
    renderWithProviders(<MessageBoxPage />, { route: '/message-box', preloadedState: { auth: signedInAuth() } });
    await screen.findByRole('link', { name: 'Admin: Please add sources' });
    // Only the administrator's notice (it has a sender) can be answered.
    expect(screen.getAllByRole('button', { name: /^Reply to/ })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Reply to Admin: Please add sources' }));
    const box = screen.getByLabelText('Your reply to the administrator');
    expect(box).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Missing notificationId or content');
    expect(mockApi.calls('POST', '/notification/reply')).toHaveLength(0);
    await user.type(box, 'Sources added, thank you');
    await user.click(screen.getByRole('button', { name: 'Send reply' }));
    const thread = await screen.findByRole('list', { name: 'Your replies' });
    expect(thread).toHaveTextContent('You replied: Sources added, thank you');
    expect(mockApi.calls('POST', '/notification/reply')[0].body).toEqual({ notificationId: 'n1', content: 'Sources added, thank you' });
    expect(screen.queryByLabelText('Your reply to the administrator')).not.toBeInTheDocument();
    // Answering a notice marks it read.
    await waitFor(() => expect(mockApi.calls('PATCH', '/notification/mark-as-read/n1')).toHaveLength(1));
  });

  it("shows 'Failed to reply to notification' when the server fails without a message", async () => {
    serve([notice]);
    mockApi.on('POST', '/notification/reply', { status: 500 });
    const user = userEvent.setup();
    renderWithProviders(<MessageBoxPage />, { route: '/message-box', preloadedState: { auth: signedInAuth() } });
    await user.click(await screen.findByRole('button', { name: 'Reply to Admin: Please add sources' }));
    await user.type(screen.getByLabelText('Your reply to the administrator'), 'ok');
    await user.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('Failed to reply to notification')).toBeInTheDocument();
  });

  it("deletes only after the app's dialog confirms, and the badge takes the server's count", async () => {
    serve([liked, notice], 2);
    mockApi.on('DELETE', '/notification/l2', { body: { message: 'Notification deleted' } });
    mockApi.on('GET', '/notification/unread-count', { body: { count: 1 } });
    const confirmSpy = vi.spyOn(window, 'confirm');
    const user = userEvent.setup();
    const { store } = renderWithProviders(<MessageBoxPage />, { route: '/message-box', preloadedState: { auth: signedInAuth() } });
    await user.click(await screen.findByRole('button', { name: 'Delete: Bea liked your post "Hello"' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this notification?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(mockApi.calls('DELETE', '/notification/l2')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Delete: Bea liked your post "Hello"' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Bea liked your post "Hello"' })).not.toBeInTheDocument());
    expect(store.getState().notifications.unreadCount).toBe(1);
    expect(confirmSpy).not.toHaveBeenCalled();
  });

  it('filters by kind with links that say which one is shown', async () => {
    mockInbox();
    const user = userEvent.setup();
    renderWithProviders(<MessageBoxPage />, { route: '/message-box', preloadedState: { auth: signedInAuth() } });
    await screen.findByText('Admin: Notice 0');
    expect(screen.getByRole('link', { name: 'All' })).toHaveAttribute('aria-current', 'page');
    await user.click(screen.getByRole('link', { name: 'About your posts' }));
    expect(await screen.findByText('Bea liked your post "Old post"')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'About your posts' })).toHaveAttribute('aria-current', 'page');
    expect(mockApi.calls('GET', '/notification/notifications').at(-1)?.url.searchParams.get('type')).toBe('post');
  });

  it('pages with Load more (20 at a time)', async () => {
    mockInbox();
    const user = userEvent.setup();
    renderWithProviders(<MessageBoxPage />, { route: '/message-box', preloadedState: { auth: signedInAuth() } });
    await screen.findByText('Admin: Notice 0');
    expect(screen.getAllByTestId('inbox-item')).toHaveLength(20);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Bea liked your post "Old post"')).toBeInTheDocument();
    expect(screen.getAllByTestId('inbox-item')).toHaveLength(21);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });
});
