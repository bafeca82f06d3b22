/**
 * Comments (seed 001 §3 "Comment", §4 "Comments"): a post's comments as a tree, oldest first with
 * replies under their parent. Creation is optimistic with a temporary id, replaced by the
 * server's comment or removed on failure (the count never below 0, the HTTP status recorded).
 * Comment count = each top-level comment plus its replies.
 */
import { createAsyncThunk, createSlice } from '@reduxjs/toolkit';
import { injectReducers } from '@/app/store';
import type {
  DeleteCommentDeleteByCommentIdApiResponse,
  GetCommentAllCommentsByPostIdApiResponse,
  PostCommentAddCommentByPostIdApiResponse,
  PostCommentReactionByCommentIdApiResponse,
  PutCommentBlockByCommentIdApiResponse,
  PutCommentEditByCommentIdApiResponse,
} from '@/api/endpoints';
import type { Schemas } from '@/api';
import { ApiError, errorMessage, http, request } from '@/lib/http';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { sessionUserChanged, ownProfileChanged } from '@/lib/session';
import { deletePost } from '@/features/posts';
import { queueCommentIfUnreachable } from '@/features/offline';

export const MAX_COMMENT_LENGTH = 5000;
export const COMMENT_FALLBACK = {
  add: 'Failed to add comment',
  fetch: 'Failed to fetch comments',
  count: 'Failed to fetch comment count',
  reaction: 'Failed to toggle reaction',
  edit: 'Failed to edit comment',
  block: 'Failed to block comment',
  delete: 'Failed to delete comment',
} as const;
export const TEMP_ID_PREFIX = 'temp-';

export interface CommentUser {
  _id: string;
  name: string;
  avatar?: string | null;
}

export interface Comment {
  _id: string;
  post: string;
  content: string;
  parent: string | null;
  user: string;
  userData: CommentUser;
  createdAt: string;
  updatedAt?: string;
  reactions: Record<string, string[]>;
  replies: Comment[];
  repliesCount: number;
  isFlagged: boolean;
  blocked: boolean;
  edited: boolean;
  /** Client only: sent, not yet confirmed by the server. */
  pending?: boolean;
  /**
   * Client only: written while the server could not be reached, waiting in the offline queue
   * under `key` (`error`: the server refused it when it was sent).
   */
  queued?: { key: string; error: string | null };
}

type Status = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface PostComments {
  items: Comment[];
  count: number;
  status: Status;
  error: string | null;
  /** A failed comment-count fetch is flagged per post. */
  countFailed: boolean;
}

export interface CommentsState {
  byPost: Record<string, PostComments>;
  /** The last failed add: its message and HTTP status. */
  addError: { postId: string; message: string; status: number | null } | null;
  actionError: string | null;
}

export const initialCommentsState: CommentsState = { byPost: {}, addError: null, actionError: null };

const emptyPostComments = (): PostComments => ({ items: [], count: 0, status: 'idle', error: null, countFailed: false });

/** Oldest first at every level (replies already are; the server lists top-level newest first). */
/** A comment made on this device and not yet stored (no reactions, no replies, no marks). */
export function localComment(fields: Pick<Comment, '_id' | 'post' | 'content' | 'parent' | 'user' | 'userData' | 'createdAt'> & Partial<Comment>): Comment {
  return { reactions: {}, replies: [], repliesCount: 0, isFlagged: false, blocked: false, edited: false, ...fields };
}

export function sortTree(items: Comment[]): Comment[] {
  const time = (c: Comment) => new Date(c.createdAt).getTime() || 0;
  return [...items]
    .sort((a, b) => time(a) - time(b) || a._id.localeCompare(b._id))
    .map((c) => ({ ...c, replies: sortTree(c.replies ?? []), repliesCount: c.repliesCount ?? (c.replies ?? []).length }));
}

/** Each top-level comment plus its replies (at every depth). */
export function countComments(items: Comment[]): number {
  return items.reduce((sum, c) => sum + 1 + countComments(c.replies ?? []), 0);
}

function find(items: Comment[], id: string): Comment | null {
  for (const c of items) {
    if (c._id === id) return c;
    const inner = find(c.replies ?? [], id);
    if (inner) return inner;
  }
  return null;
}

function removeFrom(items: Comment[], id: string): { items: Comment[]; removed: Comment | null } {
  let removed: Comment | null = null;
  const walk = (list: Comment[]): Comment[] =>
    list
      .filter((c) => {
        if (c._id === id) {
          removed = c;
          return false;
        }
        return true;
      })
      .map((c) => ({ ...c, replies: walk(c.replies ?? []) }));
  const next = walk(items);
  return { items: next, removed };
}

/** A comment as the server gives it (`CommentView`) as the thread keeps it. */
function normalise(raw: Partial<Schemas['CommentView']>): Comment {
  return {
    _id: String(raw._id),
    post: String(raw.post ?? ''),
    content: String(raw.content ?? ''),
    parent: raw.parent ?? null,
    user: String(raw.user ?? raw.userData?._id ?? ''),
    userData: raw.userData ?? { _id: String(raw.user ?? ''), name: 'User' },
    createdAt: raw.createdAt ?? new Date().toISOString(),
    updatedAt: raw.updatedAt,
    reactions: raw.reactions ?? {},
    replies: sortTree((raw.replies ?? []).map(normalise)),
    repliesCount: raw.repliesCount ?? (raw.replies ?? []).length,
    isFlagged: Boolean(raw.isFlagged),
    blocked: Boolean(raw.blocked),
    edited: Boolean(raw.edited),
  };
}

type AuthView = { auth: { isAuthenticated: boolean; user: { _id: string; name: string } | null } };
type Config = { rejectValue: string; state: AuthView & { comments: CommentsState } };

export const fetchComments = createAsyncThunk<{ comments: Comment[]; count: number }, string, Config>(
  'comments/fetch',
  async (postId, { rejectWithValue }) => {
    try {
      const r = await http.get<GetCommentAllCommentsByPostIdApiResponse>(`/comment/all-comments/${encodeURIComponent(postId)}`, COMMENT_FALLBACK.fetch);
      const comments = sortTree((r?.comments ?? []).map(normalise));
      return { comments, count: countComments(comments) };
    } catch (e) {
      return rejectWithValue(errorMessage(e, COMMENT_FALLBACK.fetch));
    }
  },
);

export interface AddCommentArg {
  postId: string;
  content: string;
  parentId?: string | null;
  /** Who writes it, shown on the comment until the server's copy arrives. */
  author?: CommentUser;
}

/**
 * Sends a comment under an `Idempotency-Key`. When the server cannot be reached, the comment goes
 * to the offline queue under the same key (features/offline; sent when the server is back, once
 * even if this first try did arrive) and the answer is `{queued: true}`: the thread then shows it
 * from the queue (queued-comments.ts).
 */
export const addComment = createAsyncThunk<Comment | { queued: true }, AddCommentArg, Config & { rejectValue: string }>(
  'comments/add',
  async ({ postId, content, parentId, author }, { getState, rejectWithValue }) => {
    const key = newIdempotencyKey();
    try {
      const r = await request<PostCommentAddCommentByPostIdApiResponse>(`/comment/add-comment/${encodeURIComponent(postId)}`, {
        method: 'POST',
        body: { content: content.trim(), parentId: parentId ?? null },
        fallback: COMMENT_FALLBACK.add,
        headers: { 'Idempotency-Key': key },
      });
      return normalise(r.comment);
    } catch (e) {
      const user = getState().auth.user;
      const who = user ? { _id: user._id, name: author?.name ?? user.name } : null;
      if (who && (await queueCommentIfUnreachable(e, { key, userId: who._id, postId, parentId: parentId ?? null, content: content.trim(), author: who }))) {
        return { queued: true as const };
      }
      const status = e instanceof ApiError ? e.status : null;
      return rejectWithValue(JSON.stringify({ message: errorMessage(e, COMMENT_FALLBACK.add), status }));
    }
  },
  {
    condition: ({ content }, { getState }) => {
      const text = content.trim();
      return getState().auth.isAuthenticated && text.length >= 1 && content.length <= MAX_COMMENT_LENGTH;
    },
  },
);

export const reactToComment = createAsyncThunk<
  { reactions: Record<string, string[]> },
  { postId: string; commentId: string; reactionType?: string },
  Config
>('comments/react', async ({ commentId, reactionType = 'like' }, { rejectWithValue }) => {
  try {
    const r = await http.post<PostCommentReactionByCommentIdApiResponse>(
      `/comment/reaction/${encodeURIComponent(commentId)}`,
      { reactionType },
      COMMENT_FALLBACK.reaction,
    );
    return { reactions: r?.reactions ?? {} };
  } catch (e) {
    return rejectWithValue(errorMessage(e, COMMENT_FALLBACK.reaction));
  }
});

export const editComment = createAsyncThunk<Comment, { postId: string; commentId: string; content: string }, Config>(
  'comments/edit',
  async ({ commentId, content }, { rejectWithValue }) => {
    try {
      const r = await http.put<PutCommentEditByCommentIdApiResponse>(`/comment/edit/${encodeURIComponent(commentId)}`, { content }, COMMENT_FALLBACK.edit);
      return normalise(r.comment);
    } catch (e) {
      return rejectWithValue(errorMessage(e, COMMENT_FALLBACK.edit));
    }
  },
);

export const blockComment = createAsyncThunk<Comment | null, { postId: string; commentId: string; blocked: boolean }, Config>(
  'comments/block',
  async ({ commentId, blocked }, { rejectWithValue }) => {
    try {
      const r = await http.put<PutCommentBlockByCommentIdApiResponse>(`/comment/block/${encodeURIComponent(commentId)}`, { blocked }, COMMENT_FALLBACK.block);
      return r?.comment ? normalise(r.comment) : null;
    } catch (e) {
      return rejectWithValue(errorMessage(e, COMMENT_FALLBACK.block));
    }
  },
);

export const deleteComment = createAsyncThunk<{ postId: string }, { postId: string; commentId: string }, Config>(
  'comments/delete',
  async ({ postId, commentId }, { rejectWithValue }) => {
    try {
      const r = await http.delete<DeleteCommentDeleteByCommentIdApiResponse>(`/comment/delete/${encodeURIComponent(commentId)}`, COMMENT_FALLBACK.delete);
      return { postId: r?.postId ?? postId };
    } catch (e) {
      return rejectWithValue(errorMessage(e, COMMENT_FALLBACK.delete));
    }
  },
);

function of(state: CommentsState, postId: string): PostComments {
  return (state.byPost[postId] ??= emptyPostComments());
}

const tempId = (requestId: string) => `${TEMP_ID_PREFIX}${requestId}`;

const commentsSlice = createSlice({
  name: 'comments',
  initialState: initialCommentsState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      // Hidden comments read differently for their authors, the post's author and administrators.
      .addCase(sessionUserChanged, () => initialCommentsState)
      // The signed-in user's new name and avatar show on their comments at once.
      .addCase(ownProfileChanged, (state, action) => {
        const { _id, name, avatar } = action.payload;
        const rename = (list: Comment[]) => {
          for (const c of list) {
            if (c.user === _id || c.userData?._id === _id) c.userData = { ...c.userData, _id, name, avatar };
            rename(c.replies ?? []);
          }
        };
        for (const thread of Object.values(state.byPost)) rename(thread.items);
      })
      .addCase(deletePost.fulfilled, (state, action) => {
        delete state.byPost[action.payload];
      })
      .addCase(fetchComments.pending, (state, action) => {
        const c = of(state, action.meta.arg);
        c.status = 'loading';
        c.error = null;
      })
      .addCase(fetchComments.fulfilled, (state, action) => {
        const c = of(state, action.meta.arg);
        // Comments sent meanwhile and not yet confirmed stay.
        const waiting = c.items.filter((x) => x.pending && !x.parent);
        c.items = [...action.payload.comments, ...waiting];
        c.count = action.payload.count + waiting.length;
        c.status = 'succeeded';
        c.countFailed = false;
      })
      .addCase(fetchComments.rejected, (state, action) => {
        const c = of(state, action.meta.arg);
        c.status = 'failed';
        c.error = action.payload ?? COMMENT_FALLBACK.fetch;
        c.countFailed = true;
      })
      // Optimistic: the comment shows at once under a temporary id.
      .addCase(addComment.pending, (state, action) => {
        const { postId, content, parentId } = action.meta.arg;
        const c = of(state, postId);
        state.addError = null;
        const comment = localComment({
          _id: tempId(action.meta.requestId),
          post: postId,
          content: content.trim(),
          parent: parentId ?? null,
          user: action.meta.arg.author?._id ?? '',
          userData: action.meta.arg.author ?? { _id: '', name: 'You' },
          createdAt: new Date().toISOString(),
          pending: true,
        });
        const parent = parentId ? find(c.items, parentId) : null;
        if (parent) {
          parent.replies.push(comment);
          parent.repliesCount += 1;
        } else {
          c.items.push(comment);
        }
        c.count += 1;
      })
      .addCase(addComment.fulfilled, (state, action) => {
        const c = of(state, action.meta.arg.postId);
        if ('queued' in action.payload && action.payload.queued === true) {
          // Queued: the thread shows it from the offline queue until it is sent.
          const { items, removed } = removeFrom(c.items, tempId(action.meta.requestId));
          c.items = items;
          if (removed) c.count = Math.max(0, c.count - 1);
          const parent = action.meta.arg.parentId ? find(c.items, action.meta.arg.parentId) : null;
          if (removed && parent) parent.repliesCount = Math.max(0, parent.repliesCount - 1);
          return;
        }
        const temp = find(c.items, tempId(action.meta.requestId));
        if (temp) Object.assign(temp, { ...action.payload, replies: temp.replies, pending: false });
      })
      .addCase(addComment.rejected, (state, action) => {
        if (action.meta.condition) return;
        const { postId, parentId } = action.meta.arg;
        const c = of(state, postId);
        const { items, removed } = removeFrom(c.items, tempId(action.meta.requestId));
        c.items = items;
        if (removed) {
          c.count = Math.max(0, c.count - 1);
          const parent = parentId ? find(c.items, parentId) : null;
          if (parent) parent.repliesCount = Math.max(0, parent.repliesCount - 1);
        }
        let detail = { message: COMMENT_FALLBACK.add as string, status: null as number | null };
        try {
          detail = { ...detail, ...(JSON.parse(action.payload ?? '{}') as Partial<typeof detail>) };
        } catch {
          /* a plain message */
        }
        state.addError = { postId, message: detail.message, status: detail.status };
      })
      .addCase(reactToComment.fulfilled, (state, action) => {
        const target = find(of(state, action.meta.arg.postId).items, action.meta.arg.commentId);
        if (target) target.reactions = action.payload.reactions;
      })
      .addCase(editComment.fulfilled, (state, action) => {
        const target = find(of(state, action.meta.arg.postId).items, action.meta.arg.commentId);
        if (target) {
          target.content = action.payload.content;
          target.edited = true;
          target.updatedAt = action.payload.updatedAt;
        }
      })
      // Blocking sets it flagged and blocked and lowers the post's comment count.
      .addCase(blockComment.fulfilled, (state, action) => {
        const c = of(state, action.meta.arg.postId);
        const target = find(c.items, action.meta.arg.commentId);
        if (!target) return;
        const blocked = action.meta.arg.blocked;
        if (target.blocked !== blocked) c.count = Math.max(0, c.count + (blocked ? -1 : 1));
        target.blocked = blocked;
        target.isFlagged = blocked ? true : (action.payload?.isFlagged ?? target.isFlagged);
      })
      // Deleting removes it and its nested replies, and lowers the count by as many.
      .addCase(deleteComment.fulfilled, (state, action) => {
        const c = of(state, action.meta.arg.postId);
        const { items, removed } = removeFrom(c.items, action.meta.arg.commentId);
        c.items = items;
        if (!removed) return;
        const gone = removed;
        c.count = Math.max(0, c.count - 1 - countComments(gone.replies ?? []));
        const parent = gone.parent ? find(c.items, gone.parent) : null;
        if (parent) parent.repliesCount = Math.max(0, parent.repliesCount - 1);
      })
      .addMatcher(
        (action): action is { type: string; payload: string | undefined } =>
          [reactToComment.rejected.type, editComment.rejected.type, blockComment.rejected.type, deleteComment.rejected.type].includes(
            (action as { type: string }).type,
          ),
        (state, action) => {
          state.actionError = action.payload ?? null;
        },
      );
  },
});

export const commentsReducer = commentsSlice.reducer;
// Loaded with the comments (below the article, after the page's own code): the slice joins the
// store when this module loads; the post page reads the count through comment-count.ts.
injectReducers({ comments: commentsReducer });

type WithComments = { comments: CommentsState };
const NO_COMMENTS: PostComments = emptyPostComments();
export const selectPostComments = (state: WithComments, postId: string): PostComments => state.comments.byPost[postId] ?? NO_COMMENTS;
