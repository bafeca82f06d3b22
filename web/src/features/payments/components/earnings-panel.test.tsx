// An author's earnings, read through the generated endpoint a page at a time.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { PAYMENTS_FALLBACK } from '../payments-slice';
import { EarningsPanel, entryLabel } from './earnings-panel';

const balance = { currency: 'usd', gross: 2000, fees: 200, refunds: 0, paidOut: 500, availableBalance: 1300 };
const entry = (id: string) => ({ _id: id, kind: 'charge', currency: 'usd', gross: 1000, fee: 100, amount: 900, createdAt: '2026-01-02T00:00:00Z' });

describe('the earnings panel', () => {
  it('shows the balances and the ledger, a page at a time (10 a page)', async () => {
    mockApi.on('GET', '/earning/my-earnings', (req) => ({
      body: { earnings: [balance], entries: [entry(`e${req.url.searchParams.get('page')}`)], total: 11, page: Number(req.url.searchParams.get('page')), totalPages: 2, minPayout: 1000, hasBankDetails: true },
    }));
    const user = userEvent.setup();
    renderWithProviders(<EarningsPanel />, { preloadedState: { auth: signedInAuth() } });
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(await screen.findByTestId('paid-out-usd')).toHaveTextContent('$5.00');
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument();
    expect(mockApi.calls('GET', '/earning/my-earnings').map((c) => c.url.search)).toEqual(['?page=1&limit=10', '?page=2&limit=10']);
  });

  it("says 'Failed to fetch earnings' when the server gives no message, and tries again", async () => {
    mockApi.on('GET', '/earning/my-earnings', { status: 500, body: {} }, { once: true });
    const user = userEvent.setup();
    renderWithProviders(<EarningsPanel />, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByRole('alert')).toHaveTextContent(PAYMENTS_FALLBACK.earnings);
    mockApi.on('GET', '/earning/my-earnings', { body: { earnings: [], entries: [], total: 0, page: 1, totalPages: 0, minPayout: 1000, hasBankDetails: false } });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No earnings yet: they appear here when a reader pays for one of your plans or tips one of your posts.')).toBeInTheDocument();
  });

  it('labels a tip "Tip · <post title>", and a subscription payment by its kind', async () => {
    const tip = { ...entry('t1'), source: 'tip' as const, postId: 'p1', postTitle: 'Tides', tipId: 'tip1' };
    mockApi.on('GET', '/earning/my-earnings', {
      body: { earnings: [balance], entries: [tip, { ...entry('c1'), source: 'subscription', postId: null, postTitle: null, tipId: null }], total: 2, page: 1, totalPages: 1, minPayout: 1000, hasBankDetails: true, mode: 'test' },
    });
    renderWithProviders(<EarningsPanel />, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByRole('cell', { name: 'Tip · Tides' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Subscription payment' })).toBeInTheDocument();
    expect(entryLabel({ kind: 'refund', source: 'tip', postTitle: 'Tides' })).toBe('Tip refunded · Tides');
    expect(entryLabel({ kind: 'charge', source: 'tip', postTitle: null })).toBe('Tip · a deleted post');
    expect(entryLabel({ kind: 'payout' })).toBe('Payout');
  });
});
