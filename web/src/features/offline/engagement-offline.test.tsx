// A like or bookmark made while the server cannot be reached: queued as the state wanted,
// shown as wanted and pending, kept across a reload, and replaced by a newer wish.
import 'fake-indexeddb/auto';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearPersonalData, listQueue } from '@/lib/offline-db';
import { installFakeServiceWorker } from '@/test/fake-service-worker';
import { testPost } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth, testUser } from '@/test/render';
import type { Post } from '@/types/entities';
import { EngagementBar } from '@/features/engagement';
import { queuedChanged } from './pending-store';
import { refreshQueued } from './queue';

// The page would ask the server every few seconds whether it is back: not in these tests.
vi.mock('./reachability', () => ({ whenServerAnswers: vi.fn(() => new Promise(() => {})) }));

const post: Post = testPost({ _id: 'p1', slug: 'hello', title: 'Hello', likesCount: 3, bookmarksCount: 1, shareCount: 0, views: 8 });
const unreachable = () => {
  throw new TypeError('Failed to fetch');
};

const worker = installFakeServiceWorker();
beforeEach(async () => {
  await clearPersonalData(undefined);
  worker.running(true);
  mockApi.on('GET', '/post/bookmark-status/p1', { body: { liked: false, bookmarked: false, likesCount: 3, bookmarksCount: 1 } });
});
afterEach(async () => {
  // What the queue shows is read again from the (now empty) store.
  await clearPersonalData(undefined);
  await act(async () => {
    await refreshQueued();
  });
});

describe('liking and bookmarking offline', () => {
  it('queues the wanted state, shows it pending with an accessible note, and keeps it across a reload', async () => {
    mockApi.on('POST', '/post/like/p1', unreachable);
    mockApi.on('POST', '/post/bookmark/p1', unreachable);
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(<EngagementBar post={post} commentCount={0} />, { preloadedState: { auth: signedInAuth() } });
    await user.click(await screen.findByRole('button', { name: /^Like/ }));
    const note = await screen.findByText('Like pending — will be sent when you are back online');
    const like = screen.getByRole('button', { name: /Liked/ });
    expect(like).toHaveAttribute('aria-pressed', 'true');
    expect(like).toHaveAttribute('aria-describedby', note.id);
    expect(screen.getByTestId('likes-count')).toHaveTextContent('4');
    await user.click(screen.getByRole('button', { name: /^Bookmark/ }));
    await screen.findByText('Like and bookmark pending — will be sent when you are back online');
    expect(screen.getByRole('button', { name: /Bookmarked/ })).toHaveAttribute('aria-describedby', note.id);
    expect(note.closest('[role="status"]')).not.toBeNull();
    expect((await listQueue()).map((e) => (e.kind === 'comment' ? e.key : [e.key, e.want, e.userId]))).toEqual([
      ['like:p1', true, testUser._id],
      ['bookmark:p1', true, testUser._id],
    ]);

    // A reload: what the page knew is gone; the queue is read again from the device, and the
    // server's state (still not liked) and the queue (liked) show as wanted.
    unmount();
    act(() => queuedChanged([]));
    await act(refreshQueued);
    renderWithProviders(<EngagementBar post={post} commentCount={0} />, { preloadedState: { auth: signedInAuth() } });
    await waitFor(() => expect(screen.getByRole('button', { name: /Liked/ })).toHaveAttribute('aria-pressed', 'true'));
    expect(screen.getByTestId('likes-count')).toHaveTextContent('4');
    expect(screen.getByText('Like and bookmark pending — will be sent when you are back online')).toBeInTheDocument();
  });

  it('a second press while the like waits replaces the wish in the queue, without asking the server', async () => {
    mockApi.on('POST', '/post/like/p1', unreachable);
    const user = userEvent.setup();
    renderWithProviders(<EngagementBar post={post} commentCount={0} />, { preloadedState: { auth: signedInAuth() } });
    await user.click(await screen.findByRole('button', { name: /^Like/ }));
    await screen.findByText('Like pending — will be sent when you are back online');
    await user.click(screen.getByRole('button', { name: /Liked/ }));
    await waitFor(() => expect(screen.getByRole('button', { name: /^Like/ })).toHaveAttribute('aria-pressed', 'false'));
    expect(screen.getByTestId('likes-count')).toHaveTextContent('3');
    expect(mockApi.calls('POST', '/post/like/p1')).toHaveLength(1);
    expect((await listQueue()).map((e) => (e.kind === 'like' ? e.want : null))).toEqual([false]);
  });

  it('reads the server again once the worker has sent it', async () => {
    mockApi.on('POST', '/post/like/p1', unreachable);
    const user = userEvent.setup();
    renderWithProviders(<EngagementBar post={post} commentCount={0} />, { preloadedState: { auth: signedInAuth() } });
    await user.click(await screen.findByRole('button', { name: /^Like/ }));
    await screen.findByText('Like pending — will be sent when you are back online');
    mockApi.on('GET', '/post/bookmark-status/p1', { body: { liked: true, bookmarked: false, likesCount: 7, bookmarksCount: 1 } });
    await clearPersonalData(undefined);
    act(() => worker.say({ type: 'OFFLINE_CHANGED' }));
    await waitFor(() => expect(screen.getByTestId('likes-count')).toHaveTextContent('7'));
    expect(screen.queryByTestId('pending-note')).not.toBeInTheDocument();
  });

  it('without a worker to send it later, a failed like fails as before', async () => {
    worker.running(false);
    mockApi.on('POST', '/post/like/p1', unreachable);
    const user = userEvent.setup();
    renderWithProviders(<EngagementBar post={post} commentCount={0} />, { preloadedState: { auth: signedInAuth() } });
    await user.click(await screen.findByRole('button', { name: /^Like/ }));
    await waitFor(() => expect(screen.getByRole('button', { name: /^Like/ })).toHaveAttribute('aria-pressed', 'false'));
    expect(await listQueue()).toEqual([]);
  });
});
