// The reader's tips: each with its post, writer, amount and status, and a refund with a reason.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { SentTips } from './sent-tips';

const tip = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  postId: 'p1',
  post: { id: 'p1', title: 'Tides', slug: 'tides' },
  authorId: 'w1',
  author: { id: 'w1', name: 'Bea' },
  from: { id: 'u1', name: 'Ada' },
  amount: 500,
  currency: 'usd',
  fee: 50,
  net: 450,
  message: 'Thanks!',
  public: true,
  hidden: false,
  status: 'succeeded',
  createdAt: '2026-01-02T00:00:00Z',
  mode: 'test',
  ...over,
});

describe('tips you sent', () => {
  it('lists each tip and refunds one once, with a reason', async () => {
    let tips = [tip('t1'), tip('t2', { status: 'refunded', amount: 300, message: null, public: false })];
    mockApi.on('GET', '/tips/sent', () => ({ body: { tips, total: 2, page: 1, totalPages: 1, limit: 10 } }));
    mockApi.on('POST', '/tips/t1/refund', () => {
      tips = [tip('t1', { status: 'refunded' }), tips[1]];
      return { delayMs: 20, body: { message: 'Tip refunded', tip: tips[0], refund: { amount: 500, currency: 'usd', status: 'succeeded' } } };
    });
    const user = userEvent.setup();
    renderWithProviders(<SentTips />, { preloadedState: { auth: signedInAuth() } });
    const [first, second] = await screen.findAllByTestId('tip-sent');
    expect(within(first).getByRole('heading')).toHaveTextContent('$5.00 to Bea for Tides');
    expect(within(first).getByRole('link', { name: 'Tides' })).toHaveAttribute('href', '/post/tides');
    expect(first).toHaveTextContent('succeeded');
    expect(first).toHaveTextContent('“Thanks!”');
    expect(second).toHaveTextContent('refunded');
    expect(second).toHaveTextContent('Private.');
    expect(within(second).queryByRole('button', { name: /Refund/ })).not.toBeInTheDocument();

    await user.click(within(first).getByRole('button', { name: 'Refund $5.00 to Bea' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund this tip' });
    const refund = within(dialog).getByRole('button', { name: 'Refund' });
    expect(refund).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Reason'), 'Sent by mistake');
    await user.dblClick(refund);
    expect(await screen.findByText('Tip refunded')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(mockApi.calls('POST', '/tips/t1/refund')).toHaveLength(1);
    expect(mockApi.calls('POST', '/tips/t1/refund')[0].body).toEqual({ reason: 'Sent by mistake' });
    await vi.waitFor(() => expect(within(screen.getAllByTestId('tip-sent')[0]).queryByRole('button', { name: /Refund/ })).not.toBeInTheDocument());
  });

  it('says when there are none', async () => {
    mockApi.on('GET', '/tips/sent', { body: { tips: [], total: 0, page: 1, totalPages: 0, limit: 10 } });
    renderWithProviders(<SentTips />, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByText('You have not tipped a post yet. Posts whose writers take tips show a “Support this post” card.')).toBeInTheDocument();
  });
});
