// The money studio's plain answers, read through the generated endpoints: eligibility (seed 001
// §8's special case), a plan's analytics and the subscribers.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth, testUser } from '@/test/render';
import { CONFIG_NOT_FOUND_MESSAGE, SUBSCRIPTION_DEFAULT_CRITERIA } from '../subscriptions-api';
import { AuthorMoneyStudio } from './author-money-studio';

const plan = {
  _id: 'p1',
  authorId: testUser._id,
  name: 'Gold',
  price: 1999,
  currency: 'usd',
  interval: 'month',
  description: '',
  benefits: [],
  status: 'active',
  isDeleted: false,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  mode: 'test',
};

function studio(tab: string) {
  mockApi.on('GET', '/subscription/my-plans', { body: { plans: [plan], count: 1, mode: 'test' } });
  return renderWithProviders(<AuthorMoneyStudio authorId={testUser._id} />, { route: `/plans/${testUser._id}?tab=${tab}`, preloadedState: { auth: signedInAuth() } });
}

describe('the money studio', () => {
  it("turns 'Subscription configuration not found' into a not-eligible result with the 180-day defaults", async () => {
    mockApi.on('GET', '/subscription/check-eligibility', { status: 404, body: { message: 'Subscription configuration not found' } });
    studio('eligibility');
    expect(await screen.findByTestId('eligible')).toHaveTextContent('Not eligible yet');
    expect(screen.getByText(CONFIG_NOT_FOUND_MESSAGE)).toBeInTheDocument();
    const age = screen.getByRole('rowheader', { name: 'Account age (days)' }).closest('tr') as HTMLElement;
    expect(within(age).getByText(String(SUBSCRIPTION_DEFAULT_CRITERIA.minAccountAgeDays))).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("says 'Failed to check eligibility' when the check fails otherwise", async () => {
    mockApi.on('GET', '/subscription/check-eligibility', { status: 500, body: {} });
    studio('eligibility');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to check eligibility');
  });

  it("lists the subscribers, or says 'Failed to fetch subscribers'", async () => {
    mockApi.on('GET', `/subscription/author/${testUser._id}/subscriptions`, {
      body: {
        subscriptions: [{ _id: 's1', planId: 'p1', planName: 'Gold', authorId: testUser._id, subscriberName: 'Bea', status: 'active', createdAt: '2026-01-02T00:00:00Z' }],
        count: 1,
        mode: 'test',
      },
    });
    const first = studio('subscribers');
    expect(await screen.findByRole('cell', { name: 'Bea' })).toBeInTheDocument();
    first.unmount();
    mockApi.on('GET', `/subscription/author/${testUser._id}/subscriptions`, { status: 500, body: {} });
    studio('subscribers');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch subscribers');
  });

  it("shows a plan's analytics when asked", async () => {
    mockApi.on('GET', '/subscription/plans/p1/analytics', {
      body: {
        planId: 'p1',
        planName: 'Gold',
        currency: 'usd',
        mode: 'test',
        activeSubscribers: 2,
        totalSubscribers: 5,
        renewals: 1,
        cancellations: 3,
        refunds: 0,
        revenue: { gross: 3998, fees: 200, refunds: 0, net: 3798 },
        monthly: [],
      },
    });
    studio('plans');
    await userEvent.click(await screen.findByRole('button', { name: 'Analytics' }));
    expect(await screen.findByLabelText('Analytics of Gold')).toHaveTextContent('5');
    expect(mockApi.calls('GET', '/subscription/plans/p1/analytics')).toHaveLength(1);
  });
});
