/**
 * The posts section: the paged post list with its search and sort, block (read from the
 * server's message) and delete; a 502 gives an empty list with 'Server unavailable, please try
 * again later' (seed 001 §8); live block changes.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { ApiError } from '@/lib/http';
import { socketEvents } from '@/features/socket';
import { ADMIN_FALLBACK, adminApi, SERVER_UNAVAILABLE, type PostQuery } from '../admin-api';
import type { AdminPost } from '../admin-types';
import { withRetry } from '../retry';
import { emptyList, failed, loaded, loading, removeFrom, sectionThunk, totalPagesOf, type PagedList } from './paged-list';
import { messageSaysBlocked } from './users-slice';

export interface PostsState {
  posts: PagedList<AdminPost> & { query: Required<Pick<PostQuery, 'sortField' | 'sortOrder'>> & { search: string }; message: string | null };
}

export const initialPostsState = (): PostsState => ({
  posts: { ...emptyList<AdminPost>(), query: { search: '', sortField: 'title', sortOrder: 'asc' }, message: null },
});

const thunk = sectionThunk<PostsState>();

/** The post list (with the retry helper). */
export const fetchPosts = thunk<
  { posts: AdminPost[]; total: number; totalPages: number; page: number; message: string | null },
  PostQuery | void
>('fetchPosts', ADMIN_FALLBACK.fetchPosts, async (arg, { getState }) => {
  const { query, page } = getState().admin.posts;
  const q = { ...query, page, ...(arg ?? {}) };
  try {
    const r = await withRetry(() => adminApi.posts(q));
    const total = Number(r?.totalCount ?? 0);
    return { posts: r?.posts ?? [], total, totalPages: Number(r?.totalPages ?? totalPagesOf(total)), page: Number(r?.page ?? q.page ?? 1), message: null };
  } catch (e) {
    if (e instanceof ApiError && e.status === 502) return { posts: [], total: 0, totalPages: 0, page: q.page ?? 1, message: SERVER_UNAVAILABLE };
    throw e;
  }
});

export const toggleBlockPost = thunk<{ postId: string; message: string; blocked: boolean }, string>(
  'toggleBlockPost',
  ADMIN_FALLBACK.toggleBlockPost,
  async (postId) => {
    const r = await adminApi.toggleBlockPost(postId);
    const message = r?.message ?? '';
    return { postId, message, blocked: messageSaysBlocked(message) };
  },
);

export const deletePost = thunk<{ postId: string; message: string }, string>('deletePost', ADMIN_FALLBACK.deletePost, async (postId) => {
  const r = await adminApi.deletePost(postId);
  return { postId, message: r?.message ?? 'Post deleted' };
});

export const postsSlice = createSlice({
  name: 'admin',
  initialState: initialPostsState,
  reducers: {
    postQueryChanged(state, action: PayloadAction<Partial<PostsState['posts']['query']>>) {
      state.posts.query = { ...state.posts.query, ...action.payload };
      state.posts.page = 1;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchPosts.pending, (state) => {
        loading(state.posts);
        state.posts.message = null;
      })
      .addCase(fetchPosts.fulfilled, (state, action) => {
        loaded(state.posts, { ...action.payload, items: action.payload.posts });
        state.posts.message = action.payload.message;
      })
      .addCase(fetchPosts.rejected, (state, action) => failed(state.posts, action.payload, ADMIN_FALLBACK.fetchPosts))
      .addCase(toggleBlockPost.fulfilled, (state, action) => {
        const post = state.posts.items.find((p) => p._id === action.payload.postId);
        if (post) post.blocked = action.payload.blocked;
      })
      .addCase(deletePost.fulfilled, (state, action) => {
        removeFrom(state.posts, action.payload.postId);
      })
      .addCase(socketEvents.postBlockToggled, (state, action) => {
        const post = state.posts.items.find((p) => p._id === action.payload.postId);
        if (post) post.blocked = action.payload.blocked;
      });
  },
});

export const { postQueryChanged } = postsSlice.actions;
