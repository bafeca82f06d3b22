// The support card: amounts as a radio group, another amount checked against the limits, the
// message counter, the split before paying, one tip for a double click, and its states.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { guestAuth, renderWithProviders, signedInAuth, testUser } from '@/test/render';
import { tipDraftKey } from '../tip-draft';
import { SupportCard } from './support-card';

const post = { _id: 'p1', title: 'Tides', author: { _id: 'w1', name: 'Bea Writer' } };
const options = (over: Record<string, unknown> = {}) => ({
  enabled: true,
  reason: null,
  currency: 'usd',
  suggestedAmounts: [300, 500, 1000],
  minimum: 50,
  maximum: 50000,
  platformFeePercent: 10,
  mode: 'test',
  ...over,
});
const tip = { id: 't1', postId: 'p1', post: { id: 'p1', title: 'Tides', slug: 'tides' }, authorId: 'w1', author: { id: 'w1', name: 'Bea Writer' }, from: { id: 'u1', name: 'Ada' }, amount: 500, currency: 'usd', fee: 50, net: 450, message: 'Thanks!', public: true, hidden: false, status: 'succeeded', createdAt: '2026-01-02T00:00:00Z', mode: 'test' };

function renderCard(auth = signedInAuth()) {
  return renderWithProviders(<SupportCard post={post} placement="end" />, { preloadedState: { auth } });
}

describe('the support card', () => {
  it('offers the suggested amounts, shows the fee and what the writer receives, and pays once on a double click', async () => {
    mockApi.on('GET', '/tips/options/p1', { body: options() });
    mockApi.on('POST', '/tips', { status: 201, delayMs: 30, body: { message: 'Thank you for your tip', tip, payment: { clientSecret: null }, mode: 'test' } });
    const user = userEvent.setup();
    renderCard();
    const card = await screen.findByRole('region', { name: 'Support this post' });
    expect(within(card).getByText('test mode — no real money')).toBeInTheDocument();
    const amounts = within(card).getByRole('group', { name: 'Amount' });
    expect(within(amounts).getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual(['$3.00', '$5.00', '$10.00', 'Other amount']);
    await user.click(within(amounts).getByRole('radio', { name: '$5.00' }));
    expect(within(card).getByRole('radio', { name: '$5.00' })).toBeChecked();
    await user.type(within(card).getByLabelText('Message (optional)'), 'Thanks!');
    expect(within(card).getByText('7/280 characters')).toBeInTheDocument();
    await user.click(within(card).getByLabelText('Show my name on the supporters list'));
    const split = within(card).getByTestId('tip-split');
    expect(split).toHaveTextContent('You pay$5.00');
    expect(split).toHaveTextContent('Platform fee (10%)$0.50');
    expect(split).toHaveTextContent('Bea Writer receives$4.50');
    await user.dblClick(within(card).getByRole('button', { name: 'Pay $5.00' }));
    expect(await within(card).findByText('Thank you for your tip')).toBeInTheDocument();
    expect(within(card).getByRole('status')).toHaveTextContent('$5.00 to Bea Writer, with your name on the supporters list.');
    const calls = mockApi.calls('POST', '/tips');
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toEqual({ postId: 'p1', amount: 500, currency: 'usd', message: 'Thanks!', public: true });
    expect(calls[0].headers.get('Idempotency-Key')).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Send another tip' }));
    expect(within(card).getByRole('radio', { name: '$5.00' })).not.toBeChecked();
  });

  it('takes another amount in major units, refuses one outside the limits, and sends minor units', async () => {
    mockApi.on('GET', '/tips/options/p1', { body: options() });
    mockApi.on('POST', '/tips', { status: 201, body: { message: 'Thank you for your tip', tip: { ...tip, amount: 750 }, payment: { clientSecret: null }, mode: 'test' } });
    const user = userEvent.setup();
    renderCard();
    await user.click(await screen.findByRole('radio', { name: 'Other amount' }));
    const input = screen.getByLabelText('Other amount (USD)');
    expect(input).toHaveAccessibleDescription('From $0.50 to $500.00.');
    await user.type(input, 'five');
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter an amount between $0.50 and $500.00, such as 5 or 5.50.');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveFocus();
    await user.clear(input);
    await user.type(input, '0.25');
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter an amount between $0.50 and $500.00.');
    await user.clear(input);
    await user.type(input, '7.5');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pay $7.50' }));
    expect(await screen.findByText('Thank you for your tip')).toBeInTheDocument();
    expect(mockApi.calls('POST', '/tips')[0].body).toMatchObject({ amount: 750, message: null, public: false });
  });

  it("asks to choose an amount first, and shows the server's refusal", async () => {
    mockApi.on('GET', '/tips/options/p1', { body: options() });
    mockApi.on('POST', '/tips', { status: 402, body: { message: 'Your card was declined.', code: 'payment_failed' } });
    const user = userEvent.setup();
    renderCard();
    await user.click(await screen.findByRole('button', { name: 'Pay' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose an amount.');
    expect(mockApi.calls('POST', '/tips')).toHaveLength(0);
    await user.click(screen.getByRole('radio', { name: '$3.00' }));
    await user.click(screen.getByRole('button', { name: 'Pay $3.00' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your card was declined.');
    expect(screen.getByRole('button', { name: 'Pay $3.00' })).toBeEnabled();
  });

  it('brings back what the reader chose and typed after a reload, with a note that Pay sends the same payment', async () => {
    sessionStorage.setItem(
      tipDraftKey(testUser._id, 'p1'),
      JSON.stringify({ choice: 1000, other: '', message: 'Kept', public: true, attempt: { key: 'k1', amount: 1000, currency: 'usd', message: 'Kept', public: true } }),
    );
    mockApi.on('GET', '/tips/options/p1', { body: options() });
    renderCard();
    expect(await screen.findByRole('radio', { name: '$10.00' })).toBeChecked();
    expect(screen.getByLabelText('Message (optional)')).toHaveValue('Kept');
    expect(screen.getByLabelText('Show my name on the supporters list')).toBeChecked();
    expect(screen.getByText('Your last payment did not finish: Pay sends it again, and you are charged at most once.')).toBeInTheDocument();
  });

  it('asks a signed-out reader of a post that can be tipped to log in, and shows a guest nothing otherwise', async () => {
    mockApi.on('GET', '/tips/options/p1', { body: options({ enabled: false, reason: 'Sign in to support this post' }) }, { once: true });
    const { unmount } = renderCard(guestAuth());
    const card = await screen.findByRole('region', { name: 'Support this post' });
    expect(within(card).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(within(card).queryByRole('button', { name: /Pay/ })).not.toBeInTheDocument();
    unmount();
    mockApi.on('GET', '/tips/options/p1', { body: options({ enabled: false, reason: 'This writer does not accept tips yet' }) });
    renderCard(guestAuth());
    await vi.waitFor(() => expect(mockApi.calls('GET', '/tips/options/p1')).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByTestId('support-card')).not.toBeInTheDocument();
  });

  it('is not shown to a reader when the post cannot be tipped; its writer reads why, or what readers see', async () => {
    mockApi.on('GET', '/tips/options/p1', { body: options({ enabled: false, reason: 'This post has been blocked and cannot be tipped' }) }, { once: true });
    const first = renderCard();
    await vi.waitFor(() => expect(mockApi.calls('GET', '/tips/options/p1')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByTestId('support-card')).not.toBeInTheDocument();
    first.unmount();
    const writer = signedInAuth({ user: { ...testUser, _id: 'w1' } });
    mockApi.on('GET', '/tips/options/p1', { body: options({ enabled: false, reason: 'This post has been blocked and cannot be tipped' }) }, { once: true });
    const second = renderCard(writer);
    expect(await screen.findByText('This post has been blocked and cannot be tipped')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Pay/ })).not.toBeInTheDocument();
    second.unmount();
    mockApi.on('GET', '/tips/options/p1', { body: options({ enabled: false, reason: 'You cannot tip your own post' }) });
    renderCard(writer);
    const note = await screen.findByText(/Signed-in readers see a support card here once you accept tips, with your suggested amounts \$3\.00 · \$5\.00 · \$10\.00/);
    expect(within(note).getByRole('link', { name: 'Tips in Plans & earnings' })).toHaveAttribute('href', '/plans/w1?tab=tips');
    renderWithProviders(<SupportCard post={post} placement="body" />, { preloadedState: { auth: writer } });
    expect(await screen.findByText('Signed-in readers see the support card here.')).toBeInTheDocument();
  });
});
