// Seed 001 §4 "Analytics fetches go idle, loading, succeeded or failed"; §8 the two fallbacks.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { EngagementPanel, PostStatsPanel } from './analytics-panel';

// The charts (recharts) are not what these tests are about.
vi.mock('./engagement-charts', () => ({ default: () => <div data-testid="charts" /> }));

const day = { date: '2024-05-01', views: 3, likes: 1, bookmarks: 0, shares: 0, comments: 1, readingTime: 60 };
const totals = { views: 1200, likes: 40, bookmarks: 2, shares: 3, comments: 5, readers: 9, totalReadingTime: 600, averageReadingTime: 90 };
const engagement = { ...totals, userId: 'u1', posts: 4, followers: 10, following: 2, engagementRate: 0.05, topPosts: [], daily: [day] };
const postStats = { ...totals, postId: 'p1', title: 'Hello world', slug: 'hello-world', daily: [day] };

describe('the engagement panel', () => {
  it('shows Loading..., then the totals of the last 30 days', async () => {
    mockApi.on('GET', '/post/analytics/user-engagement', { body: engagement });
    renderWithProviders(<EngagementPanel postLink={(id) => `/p/${id}`} />, { preloadedState: { auth: signedInAuth() } });
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    const figures = await screen.findByTestId('analytics-totals');
    expect(within(figures).getByText('1.2K')).toBeInTheDocument();
    expect(within(figures).getByText('5.0%')).toBeInTheDocument();
    expect(screen.getByText('No posts yet.')).toBeInTheDocument();
    const query = mockApi.calls('GET', '/post/analytics/user-engagement')[0].url.searchParams;
    expect(query.get('days')).toBe('30');
    expect(query.has('userId')).toBe(false);
  });

  it('an administrator reads an author by userId', async () => {
    mockApi.on('GET', '/post/analytics/user-engagement', { body: { ...engagement, userId: 'u7' } });
    renderWithProviders(<EngagementPanel userId="u7" postLink={(id) => `/p/${id}`} />, { preloadedState: { auth: signedInAuth() } });
    await screen.findByTestId('analytics-totals');
    expect(mockApi.calls('GET', '/post/analytics/user-engagement')[0].url.searchParams.get('userId')).toBe('u7');
  });

  it("fails with 'Failed to fetch user engagement stats', and Try again reads it again", async () => {
    mockApi.on('GET', '/post/analytics/user-engagement', { status: 500 }, { once: true });
    const user = userEvent.setup();
    renderWithProviders(<EngagementPanel postLink={(id) => `/p/${id}`} />, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch user engagement stats');
    mockApi.on('GET', '/post/analytics/user-engagement', { body: engagement });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('analytics-totals')).toBeInTheDocument();
  });
});

describe('the post stats panel', () => {
  it("shows one post's numbers; a failure says 'Failed to fetch post stats'", async () => {
    mockApi.on('GET', '/post/analytics/post/p1', { body: postStats });
    mockApi.on('GET', '/post/analytics/post/p2', { status: 500 });
    mockApi.on('GET', /^\/api\/post\/delivery\//, { body: { postId: 'p1', announced: false, done: true, notices: 0, emailsSent: 0, emailsFailed: 0 } });
    const first = renderWithProviders(<PostStatsPanel postId="p1" backLink="/back" />, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByRole('link', { name: 'Hello world' })).toHaveAttribute('href', '/post/hello-world');
    expect(within(screen.getByTestId('analytics-totals')).getByText('9')).toBeInTheDocument();
    expect(mockApi.calls('GET', '/post/analytics/post/p1')[0].url.searchParams.get('days')).toBe('30');
    first.unmount();
    renderWithProviders(<PostStatsPanel postId="p2" backLink="/back" />, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch post stats');
    expect(screen.getByRole('link', { name: '← All analytics' })).toHaveAttribute('href', '/back');
  });
});
