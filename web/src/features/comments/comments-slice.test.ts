// Seed 001 §3 "Comment", §4 "Comments" and the §8 comment fallbacks.
import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { signedInAuth, testUser } from '@/test/render';
import {
  addComment,
  blockComment,
  countComments,
  deleteComment,
  editComment,
  fetchComments,
  MAX_COMMENT_LENGTH,
  reactToComment,
  TEMP_ID_PREFIX,
  type Comment,
} from './comments-slice';

const c = (id: string, createdAt: string, replies: Partial<Comment>[] = [], over: Partial<Comment> = {}): Partial<Comment> => ({
  _id: id,
  post: 'p1',
  content: `text ${id}`,
  parent: null,
  user: 'u2',
  userData: { _id: 'u2', name: 'Bea' },
  createdAt,
  reactions: {},
  replies: replies as Comment[],
  repliesCount: replies.length,
  ...over,
});

/** The server's order: top-level newest first, replies oldest first. */
const tree = [
  c('c3', '2024-01-03T00:00:00Z'),
  c('c1', '2024-01-01T00:00:00Z', [c('r1', '2024-01-01T01:00:00Z', [c('rr1', '2024-01-01T02:00:00Z')], { parent: 'c1' }), c('r2', '2024-01-01T03:00:00Z', [], { parent: 'c1' })]),
];

async function loaded() {
  mockApi.on('GET', '/comment/all-comments/p1', { body: { comments: tree, count: 5 } });
  const store = setupStore({ auth: signedInAuth() });
  await store.dispatch(fetchComments('p1'));
  return store;
}

const ids = (items: Comment[]): unknown[] => items.map((x) => (x.replies.length ? [x._id, ids(x.replies)] : x._id));

describe('comments', () => {
  it('are sorted oldest first with replies under their parent; the count is each top-level comment plus its replies', async () => {
    const store = await loaded();
    const state = store.getState().comments.byPost.p1;
    expect(ids(state.items)).toEqual([['c1', [['r1', ['rr1']], 'r2']], 'c3']);
    expect(state.count).toBe(5);
    expect(countComments(state.items)).toBe(5);
  });

  it("a failed fetch says 'Failed to fetch comments' and flags the count for that post", async () => {
    mockApi.on('GET', '/comment/all-comments/p1', { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchComments('p1'));
    expect(store.getState().comments.byPost.p1).toMatchObject({ status: 'failed', error: 'Failed to fetch comments', countFailed: true });
  });

  it('a new comment shows at once with a temporary id, then becomes the server comment', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    mockApi.on('POST', '/comment/add-comment/p1', async () => {
      await gate;
      return { status: 201, body: { message: 'Comment added', comment: c('c9', '2024-02-01T00:00:00Z', [], { user: testUser._id, content: 'Nice' }) } };
    });
    const store = await loaded();
    const pending = store.dispatch(addComment({ postId: 'p1', content: '  Nice  ', author: { _id: testUser._id, name: testUser.name } }));
    let state = store.getState().comments.byPost.p1;
    const temp = state.items[state.items.length - 1];
    expect(temp._id.startsWith(TEMP_ID_PREFIX)).toBe(true);
    expect(temp).toMatchObject({ content: 'Nice', pending: true, userData: { name: testUser.name } });
    expect(state.count).toBe(6);
    release();
    await pending;
    state = store.getState().comments.byPost.p1;
    expect(state.items[state.items.length - 1]).toMatchObject({ _id: 'c9', pending: false });
    expect(state.count).toBe(6);
    expect(mockApi.calls('POST', '/comment/add-comment/p1')[0].body).toEqual({ content: 'Nice', parentId: null });
  });

  it('a failed comment is removed, the count never below 0, and the HTTP status recorded', async () => {
    mockApi.on('POST', '/comment/add-comment/p1', { status: 403, body: { message: 'You cannot interact with this user', code: 'forbidden' } });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(addComment({ postId: 'p1', content: 'Hi' }));
    expect(store.getState().comments.byPost.p1).toMatchObject({ items: [], count: 0 });
    expect(store.getState().comments.addError).toEqual({ postId: 'p1', message: 'You cannot interact with this user', status: 403 });
    mockApi.on('POST', '/comment/add-comment/p1', { status: 500 });
    await store.dispatch(addComment({ postId: 'p1', content: 'Hi' }));
    expect(store.getState().comments.addError).toEqual({ postId: 'p1', message: 'Failed to add comment', status: 500 });
  });

  it('a reply raises its parent repliesCount (and lowers it again if it fails)', async () => {
    mockApi.on('POST', '/comment/add-comment/p1', { status: 201, body: { comment: c('r3', '2024-02-01T00:00:00Z', [], { parent: 'c3' }) } });
    const store = await loaded();
    await store.dispatch(addComment({ postId: 'p1', content: 'Reply', parentId: 'c3' }));
    let parent = store.getState().comments.byPost.p1.items[1];
    expect(parent).toMatchObject({ _id: 'c3', repliesCount: 1 });
    expect(parent.replies.map((r) => r._id)).toEqual(['r3']);
    mockApi.on('POST', '/comment/add-comment/p1', { status: 500 });
    await store.dispatch(addComment({ postId: 'p1', content: 'Another', parentId: 'c3' }));
    parent = store.getState().comments.byPost.p1.items[1];
    expect(parent.repliesCount).toBe(1);
    expect(store.getState().comments.byPost.p1.count).toBe(6);
  });

  it('1 to 5000 characters: an empty or longer comment is not sent', async () => {
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(addComment({ postId: 'p1', content: '   ' }));
    await store.dispatch(addComment({ postId: 'p1', content: 'x'.repeat(MAX_COMMENT_LENGTH + 1) }));
    expect(mockApi.calls('POST', '/comment/add-comment/p1')).toHaveLength(0);
  });

  it("edit replaces the text and marks it edited; a failure says 'Failed to edit comment'", async () => {
    mockApi.on('PUT', '/comment/edit/c3', { body: { comment: c('c3', '2024-01-03T00:00:00Z', [], { content: 'Better', edited: true }) } });
    const store = await loaded();
    await store.dispatch(editComment({ postId: 'p1', commentId: 'c3', content: 'Better' }));
    expect(store.getState().comments.byPost.p1.items[1]).toMatchObject({ content: 'Better', edited: true });
    mockApi.on('PUT', '/comment/edit/c3', { status: 500 });
    await store.dispatch(editComment({ postId: 'p1', commentId: 'c3', content: 'x' }));
    expect(store.getState().comments.actionError).toBe('Failed to edit comment');
  });

  it('blocking sets it flagged and blocked and lowers the count; lifting the block raises it', async () => {
    mockApi.on('PUT', '/comment/block/c3', { body: { message: 'Comment blocked', comment: c('c3', '2024-01-03T00:00:00Z', [], { blocked: true, isFlagged: true }) } });
    const store = await loaded();
    await store.dispatch(blockComment({ postId: 'p1', commentId: 'c3', blocked: true }));
    expect(store.getState().comments.byPost.p1.items[1]).toMatchObject({ blocked: true, isFlagged: true });
    expect(store.getState().comments.byPost.p1.count).toBe(4);
    mockApi.on('PUT', '/comment/block/c3', { body: { comment: c('c3', '2024-01-03T00:00:00Z', [], { blocked: false, isFlagged: true }) } });
    await store.dispatch(blockComment({ postId: 'p1', commentId: 'c3', blocked: false }));
    expect(store.getState().comments.byPost.p1.count).toBe(5);
    mockApi.on('PUT', '/comment/block/c3', { status: 500 });
    await store.dispatch(blockComment({ postId: 'p1', commentId: 'c3', blocked: true }));
    expect(store.getState().comments.actionError).toBe('Failed to block comment');
  });

  it('deleting removes it with its nested replies and lowers the count by as many', async () => {
    mockApi.on('DELETE', '/comment/delete/c1', { body: { message: 'Comment deleted', postId: 'p1' } });
    mockApi.on('DELETE', '/comment/delete/r2', { body: { message: 'Comment deleted', postId: 'p1' } });
    const store = await loaded();
    await store.dispatch(deleteComment({ postId: 'p1', commentId: 'r2' }));
    expect(store.getState().comments.byPost.p1.items[0].repliesCount).toBe(1);
    expect(store.getState().comments.byPost.p1.count).toBe(4);
    await store.dispatch(deleteComment({ postId: 'p1', commentId: 'c1' }));
    expect(ids(store.getState().comments.byPost.p1.items)).toEqual(['c3']);
    expect(store.getState().comments.byPost.p1.count).toBe(1);
    mockApi.on('DELETE', '/comment/delete/c3', { status: 500 });
    await store.dispatch(deleteComment({ postId: 'p1', commentId: 'c3' }));
    expect(store.getState().comments.actionError).toBe('Failed to delete comment');
  });

  it("reactions come from the answer; a failure says 'Failed to toggle reaction'", async () => {
    mockApi.on('POST', '/comment/reaction/r1', { body: { reactions: { like: [testUser._id] }, reacted: true } });
    const store = await loaded();
    await store.dispatch(reactToComment({ postId: 'p1', commentId: 'r1' }));
    expect(mockApi.calls('POST', '/comment/reaction/r1')[0].body).toEqual({ reactionType: 'like' });
    expect(store.getState().comments.byPost.p1.items[0].replies[0].reactions).toEqual({ like: [testUser._id] });
    mockApi.on('POST', '/comment/reaction/r1', { status: 500 });
    await store.dispatch(reactToComment({ postId: 'p1', commentId: 'r1' }));
    expect(store.getState().comments.actionError).toBe('Failed to toggle reaction');
  });
});
