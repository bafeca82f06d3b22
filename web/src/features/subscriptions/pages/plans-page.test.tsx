import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { guestAuth, mockAppStartup, renderApp, signedInAuth, testUser } from '@/test/render';
import type { Plan, Subscription } from '@/types/money';

const plan = (id: string, over: Partial<Plan> = {}): Plan => ({
  _id: id,
  authorId: 'au',
  authorName: 'Bea Writer',
  name: `Plan ${id}`,
  price: 1999,
  currency: 'usd',
  interval: 'month',
  description: '',
  benefits: ['Early access'],
  status: 'active',
  isDeleted: false,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  mode: 'test',
  ...over,
});
const sub = (over: Partial<Subscription> = {}): Subscription => ({
  _id: 's1',
  subscriptionId: 's1',
  planId: 'p1',
  planName: 'Plan p1',
  authorId: 'au',
  status: 'active',
  hasAccess: true,
  currentPeriodEnd: '2030-01-01T00:00:00Z',
  ...over,
});

function readerSetup(subscriptions: Subscription[] = []) {
  mockAppStartup({ signedIn: true });
  localStorage.setItem('jwt', 'tok');
  mockApi.on('GET', '/subscription/plans/author/au', { body: { plans: [plan('p1'), plan('p2', { price: 19900, interval: 'year' })], count: 2, mode: 'test' } });
  mockApi.on('GET', '/subscription/my-subscriptions', { body: { plans: subscriptions, count: subscriptions.length } });
  mockApi.on('POST', '/subscription/status', {
    body: subscriptions.length ? { isSubscribed: true, status: subscriptions[0].status, subscriptionId: subscriptions[0]._id } : { isSubscribed: false, status: null },
  });
  // A running subscription brings the private feed panel.
  mockApi.on('GET', '/subscription/private-feed/au', { body: { url: 'http://127.0.0.1:8080/feeds/private/me/au/secret.xml' } });
}

describe('the plans page', () => {
  it('shows a reader the plans with price, interval and benefits, the test-mode badge, and subscribes once on a double click', async () => {
    readerSetup();
    mockApi.on('POST', '/subscription/subscribe', { status: 201, delayMs: 20, body: { message: 'Subscribed successfully', subscription: sub(), mode: 'test' } });
    renderApp('/plans/au', { preloadedState: { auth: { ...signedInAuth(), token: 'tok' } } });
    const card = (await screen.findAllByTestId('plan-card'))[0];
    expect(within(card).getByText('$19.99')).toBeInTheDocument();
    expect(within(card).getByText('per month')).toBeInTheDocument();
    expect(within(card).getByText('Early access')).toBeInTheDocument();
    expect(screen.getByText('test mode — no real money')).toBeInTheDocument();
    expect(await screen.findByText('You are not subscribed to this author.')).toBeInTheDocument();
    await userEvent.dblClick(within(card).getByRole('button', { name: 'Subscribe to Plan p1' }));
    expect(await screen.findByText('Subscribed successfully')).toBeInTheDocument();
    expect(mockApi.calls('POST', '/subscription/subscribe')).toHaveLength(1);
    expect(mockApi.calls('POST', '/subscription/subscribe')[0].body).toEqual({ planId: 'p1' });
    // One running subscription per author: the other plan waits.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Subscribe to Plan p2' })).toBeDisabled());
  });

  it('lets a subscriber ask for a refund with a reason and their saved bank details', async () => {
    readerSetup([sub()]);
    mockApi.on('GET', '/payment/bank-details', {
      body: {
        message: 'Bank details fetched successfully',
        bankDetails: { _id: 'b', userId: testUser._id, paymentId: 'local_ba_1', accountHolderName: 'A', accountLast4: '6789', maskedAccountNumber: '****6789', bankCode: '110000000', bankName: 'First Bank', contactData: { name: 'A', email: 'a@x', contact: '555' } },
      },
    });
    mockApi.on('PATCH', '/subscription/subscriptions/s1/refund', { body: { message: 'Subscription refunded successfully', subscription: sub({ status: 'refunded', hasAccess: false }) } });
    renderApp('/plans/au', { preloadedState: { auth: { ...signedInAuth(), token: 'tok' } } });
    await userEvent.click(await screen.findByRole('button', { name: 'Ask for a refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ask for a refund' });
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Changed my mind');
    await userEvent.selectOptions(await within(dialog).findByLabelText('Bank details'), 'local_ba_1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Subscription refunded successfully')).toBeInTheDocument();
    expect(mockApi.calls('PATCH', '/subscription/subscriptions/s1/refund')[0].body).toEqual({
      reason: 'Changed my mind',
      bankDetails: { paymentId: 'local_ba_1', accountLast4: '6789', bankName: 'First Bank' },
    });
    expect(screen.getByTestId('standing-text')).toHaveTextContent(/Refunded/);
  });

  it('asks a guest to log in instead of offering Subscribe', async () => {
    mockAppStartup();
    mockApi.on('GET', '/subscription/plans/author/au', { body: { plans: [plan('p1')], count: 1, mode: 'test' } });
    renderApp('/plans/au', { preloadedState: { auth: guestAuth() } });
    await screen.findAllByTestId('plan-card');
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button', { name: /^Subscribe/ })).not.toBeInTheDocument();
  });

  it('gives the author their money studio, with tabs in the address', async () => {
    mockAppStartup({ signedIn: true });
    mockApi.on('GET', '/subscription/my-plans', { body: { plans: [plan('p1', { authorId: testUser._id, activeSubscribers: 3 }), plan('p9', { authorId: testUser._id, isDeleted: true, status: 'inactive' })], count: 2 } });
    mockApi.on('GET', '/payment/bank-details', { body: { message: 'Bank details fetched successfully', bankDetails: null } });
    const { router } = renderApp(`/plans/${testUser._id}`, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your plans and earnings' })).toBeInTheDocument();
    expect(await screen.findByText('3 subscribers')).toBeInTheDocument();
    expect(screen.getByText('deleted')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Bank details' }));
    expect(router.state.location.search).toBe('?tab=bank-details');
    expect(await screen.findByText('No bank details yet: payouts wait until you add them.')).toBeInTheDocument();
  });

  it('shows the author the test-mode badge on whichever studio tab the address opens', async () => {
    mockAppStartup({ signedIn: true });
    mockApi.on('GET', '/subscription/my-plans', { body: { plans: [plan('p1', { authorId: testUser._id })], count: 1, mode: 'test' } });
    mockApi.on('GET', '/payment/bank-details', { body: { message: 'Bank details fetched successfully', bankDetails: null } });
    renderApp(`/plans/${testUser._id}?tab=bank-details`, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByText('No bank details yet: payouts wait until you add them.')).toBeInTheDocument();
    expect(await screen.findByText('test mode — no real money')).toBeInTheDocument();
    expect(mockApi.calls('GET', '/subscription/my-plans')).toHaveLength(1);
  });

  it('shows the refund policy to readers', async () => {
    readerSetup();
    renderApp('/plans/au', { preloadedState: { auth: { ...signedInAuth(), token: 'tok' } } });
    const policy = await screen.findByTestId('refund-policy');
    expect(within(policy).getByRole('heading', { name: 'Refund policy' })).toBeInTheDocument();
    expect(within(policy).getByText(/at most one subscription per author in any 90 days/)).toBeInTheDocument();
    expect(within(policy).getByText(/Each plan is refunded at most once/)).toBeInTheDocument();
  });
});
