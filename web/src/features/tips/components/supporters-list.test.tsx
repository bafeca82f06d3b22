// A post's supporters: names and messages a page at a time; the writer hides or shows a message.
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { socketEvents } from '@/features/socket';
import { mockApi } from '@/test/mock-api';
import { guestAuth, renderWithProviders, signedInAuth, testAdmin, testUser } from '@/test/render';
import { SupportersList } from './supporters-list';

const supporter = (n: number, message: string | null = `Message ${n}`) => ({
  tipId: `t${n}`,
  user: { id: `r${n}`, name: `Reader ${n}`, profilePicture: null },
  message,
  createdAt: '2026-01-02T00:00:00Z',
});

function twoPages() {
  mockApi.on('GET', '/post/p1/supporters', (req) => {
    const page = Number(req.url.searchParams.get('page'));
    const supporters = page === 1 ? Array.from({ length: 10 }, (_, i) => supporter(i + 1)) : [supporter(11)];
    return { body: { supporters, total: 11, page, totalPages: 2, limit: 10 } };
  });
}

describe('the supporters list', () => {
  it('shows names and messages, ten at a time, with Show more', async () => {
    twoPages();
    const user = userEvent.setup();
    renderWithProviders(<SupportersList postId="p1" authorId="w1" showEmpty />, { preloadedState: { auth: guestAuth() } });
    const list = await screen.findByRole('region', { name: 'Supporters (11)' });
    expect(await within(list).findAllByTestId('supporter')).toHaveLength(10);
    expect(within(list).getByText('Reader 1')).toBeInTheDocument();
    expect(within(list).getByText('Message 1')).toBeInTheDocument();
    expect(within(list).queryByRole('button', { name: /Hide/ })).not.toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Show more' }));
    expect(await within(list).findByText('Reader 11')).toBeInTheDocument();
    expect(within(list).getAllByTestId('supporter')).toHaveLength(11);
    expect(within(list).queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
    expect(mockApi.calls('GET', '/post/p1/supporters').map((c) => c.url.search)).toEqual(['?page=1&limit=10', '?page=2&limit=10']);
  });

  it('says there are none yet where the post can be tipped, and shows nothing elsewhere', async () => {
    mockApi.on('GET', '/post/p1/supporters', { body: { supporters: [], total: 0, page: 1, totalPages: 0, limit: 10 } });
    const { unmount } = renderWithProviders(<SupportersList postId="p1" authorId="w1" showEmpty />, { preloadedState: { auth: guestAuth() } });
    expect(await screen.findByText('No supporters yet. Readers who tip this post and choose to show their name appear here.')).toBeInTheDocument();
    unmount();
    renderWithProviders(<SupportersList postId="p1" authorId="w1" showEmpty={false} />, { preloadedState: { auth: guestAuth() } });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(screen.queryByTestId('supporters')).not.toBeInTheDocument();
  });

  it("lets the post's writer hide a message and show it again", async () => {
    mockApi.on('GET', '/post/p1/supporters', { body: { supporters: [supporter(1, 'Thanks!'), supporter(2, null)], total: 2, page: 1, totalPages: 1, limit: 10 } });
    mockApi.on('PATCH', '/tips/t1', (req) => {
      const hidden = (req.body as { hidden: boolean }).hidden;
      return { body: { message: hidden ? 'Message hidden' : 'Message shown', tip: { id: 't1', message: 'Thanks!', hidden } } };
    });
    const user = userEvent.setup();
    renderWithProviders(<SupportersList postId="p1" authorId={testUser._id} showEmpty />, { preloadedState: { auth: signedInAuth() } });
    const first = (await screen.findAllByTestId('supporter'))[0];
    expect(screen.getAllByRole('button', { name: /message of/ })).toHaveLength(1);
    await user.click(within(first).getByRole('button', { name: 'Hide the message of Reader 1' }));
    expect(await within(first).findByText('message hidden from readers')).toBeInTheDocument();
    expect(mockApi.calls('PATCH', '/tips/t1')[0].body).toEqual({ hidden: true });
    await user.click(within(first).getByRole('button', { name: 'Show the message of Reader 1' }));
    expect(await within(first).findByRole('button', { name: 'Hide the message of Reader 1' })).toBeInTheDocument();
    expect(within(first).queryByText('message hidden from readers')).not.toBeInTheDocument();
  });

  it("is read again when a tip to this post reaches its writer live", async () => {
    let supporters = [supporter(1)];
    mockApi.on('GET', '/post/p1/supporters', () => ({ body: { supporters, total: supporters.length, page: 1, totalPages: 1, limit: 10 } }));
    const { store } = renderWithProviders(<SupportersList postId="p1" authorId={testUser._id} showEmpty />, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByText('Reader 1')).toBeInTheDocument();
    supporters = [supporter(2), supporter(1)];
    act(() => {
      store.dispatch(socketEvents.tipReceived({ tipId: 't9', postId: 'other', amount: 100, currency: 'usd', from: null, message: null }));
    });
    expect(mockApi.calls('GET', '/post/p1/supporters')).toHaveLength(1);
    act(() => {
      store.dispatch(socketEvents.tipReceived({ tipId: 't2', postId: 'p1', amount: 100, currency: 'usd', from: { id: 'r2', name: 'Reader 2' }, message: null }));
    });
    expect(await screen.findByText('Reader 2')).toBeInTheDocument();
  });

  it('gives administrators the same control', async () => {
    mockApi.on('GET', '/post/p1/supporters', { body: { supporters: [supporter(1, 'Thanks!')], total: 1, page: 1, totalPages: 1, limit: 10 } });
    renderWithProviders(<SupportersList postId="p1" authorId="w1" showEmpty />, { preloadedState: { auth: signedInAuth({ user: testAdmin }) } });
    expect(await screen.findByRole('button', { name: 'Hide the message of Reader 1' })).toBeInTheDocument();
  });
});
