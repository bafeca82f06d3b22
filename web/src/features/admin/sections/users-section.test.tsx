import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth, testAdmin } from '@/test/render';
import { UsersSection } from './users-section';

const writer = { _id: 'u2', name: 'Wren Writer', email: 'wren@example.com', role: 'user', blocked: false, totalPosts: 3, isEligibleForSubscription: false };

describe('the eligibility panel', () => {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept only to be put back on the prototype, never called
  const original = Element.prototype.scrollIntoView;
  afterEach(() => {
    Element.prototype.scrollIntoView = original;
  });

  it('opens in view with focus on it, and Close gives focus back to the Eligibility button', async () => {
    mockApi.on('GET', '/admin/users', { body: { users: [writer], total: 1, totalPages: 1, page: 1 } });
    mockApi.on('GET', '/admin/subscriptions/eligibility/u2', { status: 500, body: { message: 'Failed to check user eligibility' } });
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    const user = userEvent.setup();
    renderWithProviders(<UsersSection />, { preloadedState: { auth: signedInAuth({ user: testAdmin, role: 'admin' }) } });
    const opener = await screen.findByRole('button', { name: 'Eligibility of Wren Writer' });
    await user.click(opener);
    const panel = screen.getByRole('region', { name: 'Subscription eligibility of Wren Writer' });
    expect(panel).toHaveFocus();
    expect(scrolled).toHaveBeenCalled();
    expect(scrolled.mock.contexts[0]).toBe(panel);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: 'Subscription eligibility of Wren Writer' })).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });
});
