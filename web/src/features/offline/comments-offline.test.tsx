// A comment written while the server cannot be reached: queued under the idempotency key its
// first try was sent with, shown pending in its thread (after a reload too), replaced by the
// server's copy once sent. And the offline screen: what can be read, what waits.
import 'fake-indexeddb/auto';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CommentsSection } from '@/features/comments';
import { clearPersonalData, listQueue, putSaved } from '@/lib/offline-db';
import { installFakeServiceWorker } from '@/test/fake-service-worker';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth, testUser } from '@/test/render';
import { OfflineScreen } from './components/offline-screen';
import { queuedChanged } from './pending-store';
import { refreshQueued } from './queue';

vi.mock('./reachability', () => ({ whenServerAnswers: vi.fn(() => new Promise(() => {})) }));

const worker = installFakeServiceWorker();
const unreachable = () => {
  throw new TypeError('Failed to fetch');
};

beforeEach(async () => {
  await clearPersonalData(undefined);
  await act(refreshQueued);
});

describe('commenting offline', () => {
  it('queues the comment under the key of its first try, shows it pending, and after a reload still once', async () => {
    mockApi.on('GET', '/comment/all-comments/p1', { body: { comments: [] } });
    mockApi.on('POST', '/comment/add-comment/p1', unreachable);
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(<CommentsSection postId="p1" postAuthorId="someone" />, { preloadedState: { auth: signedInAuth() } });
    await screen.findByText('No comments yet. Start the conversation.');
    await user.type(screen.getByRole('textbox', { name: 'Add a comment' }), 'Written on the train');
    await user.click(screen.getByRole('button', { name: 'Comment' }));
    const item = (await screen.findByText('Written on the train')).closest('li') as HTMLElement;
    expect(within(item).getByText('Pending — will be sent when you are back online')).toBeInTheDocument();
    expect(within(item).queryByRole('button', { name: 'Reply' })).not.toBeInTheDocument();
    expect(screen.getByTestId('comment-count')).toHaveTextContent('(1)');
    const [sent] = mockApi.calls('POST', '/comment/add-comment/p1');
    const key = sent.headers.get('Idempotency-Key');
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(await listQueue()).toEqual([expect.objectContaining({ kind: 'comment', key, postId: 'p1', content: 'Written on the train', userId: testUser._id })]);

    unmount();
    act(() => queuedChanged([]));
    await act(refreshQueued);
    renderWithProviders(<CommentsSection postId="p1" postAuthorId="someone" />, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findAllByText('Written on the train')).toHaveLength(1);
    expect(screen.getByTestId('comment-count')).toHaveTextContent('(1)');

    // Sent by the worker: the thread is read again, and the server's copy replaces the pending one.
    mockApi.on('GET', '/comment/all-comments/p1', {
      body: { comments: [{ _id: 'c1', post: 'p1', content: 'Written on the train', parent: null, user: testUser._id, userData: { _id: testUser._id, name: testUser.name }, createdAt: '2024-01-01T00:00:00Z', reactions: {}, replies: [], repliesCount: 0, isFlagged: false, blocked: false, edited: false }] },
    });
    await clearPersonalData(undefined);
    act(() => worker.say({ type: 'OFFLINE_CHANGED' }));
    await waitFor(() => expect(screen.queryByTestId('pending-note')).not.toBeInTheDocument());
    expect(screen.getAllByText('Written on the train')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Reply' })).toBeInTheDocument();
  });
});

describe('the offline screen', () => {
  it('lists the saved posts (bookmarks first) as links, and says what waits to be sent', async () => {
    await putSaved({ slug: 'recent', postId: 'p2', title: 'Opened yesterday', authorName: 'Ada', excerpt: null, bookmarked: false, openedAt: Date.parse('2024-03-02T10:00:00Z'), savedAt: 1, media: [] });
    await putSaved({ slug: 'kept', postId: 'p1', title: 'Kept for the trip', authorName: 'Grace', excerpt: 'On trains.', bookmarked: true, openedAt: null, savedAt: 1, media: [] });
    const { listSaved } = await import('@/lib/offline-db');
    act(() => queuedChanged([{ key: 'like:p1', kind: 'like', userId: testUser._id, postId: 'p1', want: true, createdAt: 1 }]));
    renderWithProviders(<OfflineScreen saved={await listSaved()} postMissing />);
    expect(screen.getByRole('heading', { level: 1, name: 'You are offline' })).toBeInTheDocument();
    expect(screen.getByText(/This post is not saved on this device/)).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Saved on this device' });
    const links = within(list).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Kept for the trip', '/post/kept'],
      ['Opened yesterday', '/post/recent'],
    ]);
    expect(within(list).getByText('Grace · Bookmarked')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('1 action waits to be sent (likes, bookmarks, comments). They will be sent when you are back online.');
  });

  it('says so when nothing is saved', () => {
    renderWithProviders(<OfflineScreen saved={[]} postMissing={false} />);
    expect(screen.getByText(/Nothing is saved on this device yet/)).toBeInTheDocument();
  });
});
