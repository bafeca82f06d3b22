/**
 * Posts: for now the public feed of the main page, the open post, post counts and the realtime
 * block flag (seed 000 §3 "Post", §4 "Posts"). The editor and the other lists arrive with the post work.
 */
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { errorMessage, http } from '@/lib/http';
import type { Post, PostCounts } from '@/types/entities';
import { socketEvents } from '@/features/socket';

export const PUBLIC_PAGE_SIZE = 12;
export const POST_FALLBACK = {
  publicPosts: 'Failed to fetch public posts',
  post: 'Failed to fetch post',
  notFound: 'Post not found',
  invalidSlug: 'Invalid post slug',
  counts: 'Failed to fetch post counts',
} as const;

type Status = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface PostsState {
  publicPosts: Post[];
  publicTotal: number;
  publicPage: number;
  publicStatus: Status;
  currentPost: Post | null;
  currentStatus: Status;
  counts: PostCounts;
  error: string | null;
}

export const initialPostsState: PostsState = {
  publicPosts: [],
  publicTotal: 0,
  publicPage: 0,
  publicStatus: 'idle',
  currentPost: null,
  currentStatus: 'idle',
  counts: { allPostsCount: 0, myPostsCount: 0, followingPostsCount: 0 },
  error: null,
};

export const fetchPublicPosts = createAsyncThunk<{ posts: Post[]; total: number; page: number }, { page: number }, { rejectValue: string }>(
  'posts/fetchPublic',
  async ({ page }, { rejectWithValue }) => {
    try {
      const r = await http.get<{ posts?: Post[]; total?: number; page?: number }>('/public/posts', POST_FALLBACK.publicPosts, {
        page,
        limit: PUBLIC_PAGE_SIZE,
      });
      return { posts: r?.posts ?? [], total: r?.total ?? 0, page: r?.page ?? page };
    } catch (e) {
      return rejectWithValue(errorMessage(e, POST_FALLBACK.publicPosts));
    }
  },
);

export const fetchPost = createAsyncThunk<Post, { slug: string }, { rejectValue: string; state: { auth: { isAuthenticated: boolean } } }>(
  'posts/fetchOne',
  async ({ slug }, { getState, rejectWithValue }) => {
    if (typeof slug !== 'string' || slug.trim() === '') return rejectWithValue(POST_FALLBACK.invalidSlug);
    const path = getState().auth.isAuthenticated ? `/post/${encodeURIComponent(slug)}` : `/public/post/${encodeURIComponent(slug)}`;
    try {
      const r = await http.get<{ post?: Post }>(path, POST_FALLBACK.post);
      if (!r?.post) return rejectWithValue(POST_FALLBACK.notFound);
      return r.post;
    } catch (e) {
      return rejectWithValue(errorMessage(e, POST_FALLBACK.post));
    }
  },
);

const postsSlice = createSlice({
  name: 'posts',
  initialState: initialPostsState,
  reducers: {
    currentPostBlockedSet(state, action: PayloadAction<boolean>) {
      if (state.currentPost) state.currentPost.blocked = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchPublicPosts.pending, (state) => {
        state.publicStatus = 'loading';
        state.error = null;
      })
      .addCase(fetchPublicPosts.fulfilled, (state, action) => {
        const { posts, total, page } = action.payload;
        const seen = new Set(page <= 1 ? [] : state.publicPosts.map((p) => p._id));
        state.publicPosts = [...(page <= 1 ? [] : state.publicPosts), ...posts.filter((p) => !seen.has(p._id))];
        state.publicTotal = total;
        state.publicPage = page;
        state.publicStatus = 'succeeded';
      })
      .addCase(fetchPublicPosts.rejected, (state, action) => {
        state.publicStatus = 'failed';
        state.error = action.payload ?? POST_FALLBACK.publicPosts;
      })
      .addCase(fetchPost.pending, (state) => {
        state.currentStatus = 'loading';
        state.error = null;
      })
      .addCase(fetchPost.fulfilled, (state, action) => {
        state.currentStatus = 'succeeded';
        state.currentPost = action.payload;
      })
      .addCase(fetchPost.rejected, (state, action) => {
        state.currentStatus = 'failed';
        state.currentPost = null;
        state.error = action.payload ?? POST_FALLBACK.post;
      })
      .addCase(socketEvents.postCountsUpdated, (state, action) => {
        for (const key of ['allPostsCount', 'myPostsCount', 'followingPostsCount'] as const) {
          const value = Number(action.payload[key]);
          if (action.payload[key] !== undefined && Number.isFinite(value)) state.counts[key] = value;
        }
      })
      .addCase(socketEvents.postBlockToggled, (state, action) => {
        const { postId, blocked } = action.payload;
        if (state.currentPost?._id === postId) state.currentPost.blocked = blocked;
        for (const p of state.publicPosts) if (p._id === postId) p.blocked = blocked;
      });
  },
});

export const { currentPostBlockedSet } = postsSlice.actions;
export const postsReducer = postsSlice.reducer;
export const selectPosts = (state: { posts: PostsState }) => state.posts;
