// Sending what was queued offline: each like, bookmark and comment exactly once.
import 'fake-indexeddb/auto';
import { clearPersonalData, listQueue, putQueued, setMeta, type QueueEntry } from '@/lib/offline-db';
import { FakeCaches } from '@/test/fake-caches';
import { mockApi } from '@/test/mock-api';
import type { WorkerDeps } from './reading-list';
import { sendQueue } from './send-queue';

const caches = new FakeCaches();
const deps: WorkerDeps = { fetch: (input, init) => mockApi.fetch(input, init), caches: caches.asCacheStorage(), now: () => Date.now() };

const READER = 'u1';

function like(postId: string, want: boolean, userId = READER): QueueEntry {
  return { key: `like:${postId}`, kind: 'like', userId, postId, want, createdAt: 1 };
}
function bookmark(postId: string, want: boolean): QueueEntry {
  return { key: `bookmark:${postId}`, kind: 'bookmark', userId: READER, postId, want, createdAt: 2 };
}
function comment(key: string, content: string, createdAt = 3): QueueEntry {
  return { key, kind: 'comment', userId: READER, postId: 'p1', parentId: null, content, author: { _id: READER, name: 'Ada' }, createdAt };
}

/** The server's like/bookmark state of p1, toggled by the POSTs the test sees. */
function serverState(initial: { liked: boolean; bookmarked: boolean }) {
  const state = { ...initial };
  mockApi.on('GET', '/post/bookmark-status/p1', () => ({ body: { ...state, likesCount: Number(state.liked), bookmarksCount: Number(state.bookmarked) } }));
  mockApi.on('POST', '/post/like/p1', () => {
    state.liked = !state.liked;
    return { body: { liked: state.liked, likesCount: Number(state.liked) } };
  });
  mockApi.on('POST', '/post/bookmark/p1', () => {
    state.bookmarked = !state.bookmarked;
    return { body: { bookmarked: state.bookmarked, bookmarksCount: Number(state.bookmarked) } };
  });
  return state;
}

beforeEach(async () => {
  await clearPersonalData(caches.asCacheStorage());
  await setMeta('owner', READER);
});

describe('sending the offline queue', () => {
  it('sends a wanted like and bookmark only when the server differs, so sending again never flips them back', async () => {
    const state = serverState({ liked: false, bookmarked: true });
    await putQueued(like('p1', true));
    await putQueued(bookmark('p1', true));
    const result = await sendQueue(deps);
    expect(result.sent.map((e) => e.key)).toEqual(['like:p1', 'bookmark:p1']);
    expect(state).toEqual({ liked: true, bookmarked: true });
    expect(mockApi.calls('POST', '/post/like/p1')).toHaveLength(1);
    expect(mockApi.calls('POST', '/post/bookmark/p1')).toHaveLength(0);
    expect(await listQueue()).toEqual([]);

    // The same wish queued again (an interrupted send): nothing is toggled.
    await putQueued(like('p1', true));
    await sendQueue(deps);
    expect(mockApi.calls('POST', '/post/like/p1')).toHaveLength(1);
    expect(state.liked).toBe(true);
  });

  it('two sends at once toggle once (one sender at a time)', async () => {
    const state = serverState({ liked: false, bookmarked: false });
    await putQueued(like('p1', true));
    await Promise.all([sendQueue(deps), sendQueue(deps), sendQueue(deps)]);
    expect(mockApi.calls('POST', '/post/like/p1')).toHaveLength(1);
    expect(state.liked).toBe(true);
  });

  it('sends a comment with the Idempotency-Key it was queued with, oldest first', async () => {
    mockApi.on('POST', '/comment/add-comment/p1', (request) => ({ status: 201, body: { comment: { _id: `c-${String((request.body as { content: string }).content)}` }, message: 'ok' } }));
    await putQueued(comment('key-2', 'second', 5));
    await putQueued(comment('key-1', 'first', 4));
    await sendQueue(deps);
    const sent = mockApi.calls('POST', '/comment/add-comment/p1');
    expect(sent.map((r) => [r.headers.get('Idempotency-Key'), r.body])).toEqual([
      ['key-1', { content: 'first', parentId: null }],
      ['key-2', { content: 'second', parentId: null }],
    ]);
    expect(await listQueue()).toEqual([]);
  });

  it('stops at the first entry the server cannot take now and keeps it and the rest', async () => {
    mockApi.on('POST', '/comment/add-comment/p1', { status: 503, body: { message: 'Try later' } });
    await putQueued(comment('key-1', 'first', 4));
    await putQueued(comment('key-2', 'second', 5));
    const result = await sendQueue(deps);
    expect(result.waiting).toBe(2);
    expect(mockApi.calls('POST', '/comment/add-comment/p1')).toHaveLength(1);
    expect((await listQueue()).map((e) => e.key)).toEqual(['key-1', 'key-2']);
  });

  it('keeps a refused comment with the server\'s message (its text is not lost) and sends nothing of another account', async () => {
    mockApi.on('POST', '/comment/add-comment/p1', { status: 400, body: { message: 'Comments are closed' } });
    await putQueued(comment('key-1', 'first'));
    await putQueued(like('p9', true, 'someone-else'));
    const result = await sendQueue(deps);
    expect(result.refused.map((e) => e.key)).toEqual(['key-1']);
    const left = await listQueue();
    expect(left).toEqual([expect.objectContaining({ key: 'like:p9' }), expect.objectContaining({ key: 'key-1', content: 'first', error: 'Comments are closed' })]);
    // A refused comment is not sent again by itself.
    await sendQueue(deps);
    expect(mockApi.calls('POST', '/comment/add-comment/p1')).toHaveLength(1);
  });

  it('drops a toggle of a post that is gone', async () => {
    mockApi.on('GET', '/post/bookmark-status/p1', { status: 404, body: { message: 'Post not found' } });
    await putQueued(like('p1', true));
    const result = await sendQueue(deps);
    expect(result.refused.map((e) => e.key)).toEqual(['like:p1']);
    expect(await listQueue()).toEqual([]);
  });

  it('waits, without losing anything, while the server cannot be reached', async () => {
    mockApi.on('GET', '/post/bookmark-status/p1', () => {
      throw new TypeError('Failed to fetch');
    });
    await putQueued(like('p1', true));
    const result = await sendQueue(deps);
    expect(result).toEqual({ sent: [], refused: [], waiting: 1 });
    expect(await listQueue()).toHaveLength(1);
  });
});
