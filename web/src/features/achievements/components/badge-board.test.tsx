// Seed 001 §3 "Achievements": badges list, metrics; the own ones recalculated, another's read.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { BadgeBoard } from './badge-board';

const firstPost = { id: 'first-post', name: 'First Post', description: 'Published a first post', metric: 'posts', threshold: 1, earnedAt: '2024-01-01T00:00:00Z' };
const progress = [
  { ...firstPost, current: 1, earned: true },
  { id: 'prolific-writer', name: 'Prolific Writer', description: 'Published 10 posts', metric: 'posts', threshold: 10, current: 1, earned: false, earnedAt: null },
];

describe('the badge board', () => {
  it('recalculates the own badges on opening and names the new ones', async () => {
    mockApi.on('POST', '/achievement/achievements/calculate', { body: { badges: [firstPost], progress, metrics: { posts: 1 }, newBadges: ['first-post'], calculatedAt: '2024-01-01T00:00:00Z' } });
    renderWithProviders(<BadgeBoard userId="u1" own />, { preloadedState: { auth: signedInAuth() } });
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(await screen.findByRole('heading', { name: /Achievements/ })).toHaveTextContent('1 of 2 earned');
    expect(screen.getByRole('status')).toHaveTextContent('New: First Post');
    expect(screen.getAllByTestId('badge')).toHaveLength(2);
    expect(screen.getByText('1 post published of 10 — 9 to go')).toBeInTheDocument();
    expect(mockApi.calls('POST', '/achievement/achievements/calculate')[0].body).toEqual({});
    expect(mockApi.calls('GET', '/achievement/achievements')).toHaveLength(0);
  });

  it("reads another user's badges with userId, without recalculating", async () => {
    mockApi.on('GET', '/achievement/achievements', { body: { badges: [], progress, calculatedAt: '2024-01-01T00:00:00Z' } });
    renderWithProviders(<BadgeBoard userId="u9" own={false} />, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByRole('heading', { name: /Achievements/ })).toHaveTextContent('1 of 2 earned');
    expect(screen.queryByText(/^New:/)).not.toBeInTheDocument();
    expect(mockApi.calls('GET', '/achievement/achievements')[0].url.searchParams.get('userId')).toBe('u9');
    expect(mockApi.calls('POST', '/achievement/achievements/calculate')).toHaveLength(0);
  });

  it("a failure says its fallback, and Try again asks again", async () => {
    mockApi.on('POST', '/achievement/achievements/calculate', { status: 500 }, { once: true });
    const user = userEvent.setup();
    renderWithProviders(<BadgeBoard userId="u1" own />, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to calculate achievements');
    mockApi.on('POST', '/achievement/achievements/calculate', { body: { badges: [], progress, metrics: {}, newBadges: [], calculatedAt: '2024-01-01T00:00:00Z' } });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: /Achievements/ })).toBeInTheDocument();
  });

  it("another user's failure says the server's message", async () => {
    mockApi.on('GET', '/achievement/achievements', { status: 403, body: { message: 'You cannot interact with this user', code: 'forbidden' } });
    renderWithProviders(<BadgeBoard userId="u9" own={false} />, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByRole('alert')).toHaveTextContent('You cannot interact with this user');
  });
});
