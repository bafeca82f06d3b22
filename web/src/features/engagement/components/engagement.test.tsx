import { screen, waitFor, within } from '@testing-library/react';
import { testPost } from '@/test/fixtures';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { guestAuth, renderWithProviders, signedInAuth } from '@/test/render';
import type { Block, Post } from '@/types/entities';
import { EngagementBar } from './engagement-bar';
import { PollBlock } from './poll-block';

const post: Post = testPost({ _id: 'p1', slug: 'hello', title: 'Hello', likesCount: 3, bookmarksCount: 1, shareCount: 0, views: 8 });
const poll: Block = { id: 'v1', type: 'poll', data: { question: 'Best?', options: [{ text: 'A', votes: 1 }, { text: 'B', votes: 3 }], multiple: false, closesAt: null } };

describe('EngagementBar', () => {
  it('shows a guest the counts and a prompt to log in instead of the buttons, and asks no status', () => {
    renderWithProviders(<EngagementBar post={post} commentCount={2} />, { preloadedState: { auth: guestAuth() } });
    expect(screen.queryByRole('button', { name: /Like/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Bookmark/ })).not.toBeInTheDocument();
    expect(screen.getByTestId('likes-count')).toHaveTextContent('3');
    expect(screen.getByTestId('views-count')).toHaveTextContent('8');
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(mockApi.calls('GET', '/post/bookmark-status/p1')).toHaveLength(0);
  });

  it('lets a signed-in reader like with the keyboard; the count follows', async () => {
    mockApi.on('GET', '/post/bookmark-status/p1', { body: { liked: false, bookmarked: false, likesCount: 3, bookmarksCount: 1 } });
    mockApi.on('POST', '/post/like/p1', { body: { liked: true, likesCount: 4 } });
    renderWithProviders(<EngagementBar post={post} commentCount={0} />, { preloadedState: { auth: signedInAuth() } });
    const like = screen.getByRole('button', { name: /Like/ });
    like.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('button', { name: /Liked/ })).toHaveAttribute('aria-pressed', 'true'));
    expect(screen.getByTestId('likes-count')).toHaveTextContent('4');
  });

  it('shares by copying the link where there is no Web Share API, and counts the share', async () => {
    mockApi.on('GET', '/post/bookmark-status/p1', { body: { liked: false, bookmarked: false, likesCount: 3, bookmarksCount: 1 } });
    mockApi.on('POST', '/post/p1/share', { body: { shareCount: 1 } });
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<EngagementBar post={post} commentCount={0} />, { preloadedState: { auth: signedInAuth() } });
    await userEvent.click(screen.getByRole('button', { name: /Share/ }));
    await waitFor(() => expect(mockApi.calls('POST', '/post/p1/share')).toHaveLength(1));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/post/hello`);
  });
});

describe('PollBlock', () => {
  it('votes, then shows counts and percentages with the choice marked; another option changes the vote', async () => {
    mockApi.on('POST', '/post/vote', (request) => {
      const index = (request.body as { optionIndex: number }).optionIndex;
      const votes = index === 0 ? [2, 3] : [1, 4];
      return { body: { poll: { postId: 'p1', blockId: 'v1', question: 'Best?', options: [{ text: 'A', votes: votes[0] }, { text: 'B', votes: votes[1] }], multiple: false, closed: false, totalVotes: 5, userVote: index, userVotes: [index] } } };
    });
    renderWithProviders(<PollBlock postId="p1" block={poll} />, { preloadedState: { auth: signedInAuth() } });
    expect(screen.queryByText(/%/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'A' }));
    const chosen = await screen.findByRole('button', { name: /A \(your vote\)/ });
    expect(chosen).toHaveAttribute('aria-pressed', 'true');
    expect(within(chosen).getByText('40% · 2 votes')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /^B/ }));
    expect(await screen.findByRole('button', { name: /B \(your vote\)/ })).toBeInTheDocument();
    expect(screen.getByText('80% · 4 votes')).toBeInTheDocument();
  });

  it('is read-only when closed and for guests (who see the results)', () => {
    const closed: Block = { ...poll, data: { ...poll.data, closesAt: '2001-01-01T00:00:00Z' } };
    renderWithProviders(<PollBlock postId="p1" block={closed} />, { preloadedState: { auth: signedInAuth() } });
    expect(screen.getByText(/This poll is closed/)).toBeInTheDocument();
    for (const button of screen.getAllByRole('button')) expect(button).toBeDisabled();
    expect(screen.getByText('75% · 3 votes')).toBeInTheDocument();
  });

  it("shows 'Vote failed' next to the poll", async () => {
    mockApi.on('POST', '/post/vote', { status: 500 });
    renderWithProviders(<PollBlock postId="p1" block={poll} />, { preloadedState: { auth: signedInAuth() } });
    await userEvent.click(screen.getByRole('button', { name: 'A' }));
    expect(await screen.findByText('Vote failed', { selector: '.poll .form-error' })).toBeInTheDocument();
  });
});
