/**
 * Posts: for now the public feed of the main page, the open post, post counts and the realtime
 * block flag (seed 000 §3 "Post", §4 "Posts"). The editor and the other lists arrive with the post work.
 */
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { errorMessage, http } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
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

export const COUNT_KEYS = ['allPostsCount', 'myPostsCount', 'followingPostsCount'] as const;

/** The counts an event carries as numbers (any subset of the three keys). */
export function countsIn(payload: Partial<Record<(typeof COUNT_KEYS)[number], unknown>>): Partial<PostCounts> {
  const found: Partial<PostCounts> = {};
  for (const key of COUNT_KEYS) {
    const raw = payload?.[key];
    const value = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : Number.NaN;
    if (raw !== '' && Number.isFinite(value) && value >= 0) found[key] = value;
  }
  return found;
}

/** Every post count the viewer has: the public count, and their own and following for users. */
export const fetchPostCounts = createAsyncThunk<Partial<PostCounts>, void, { rejectValue: string; state: { auth: { isAuthenticated: boolean } } }>(
  'posts/fetchCounts',
  async (_, { getState, rejectWithValue }) => {
    const count = async (path: string) => Number((await http.get<{ count?: number }>(path, POST_FALLBACK.counts))?.count) || 0;
    try {
      if (!getState().auth.isAuthenticated) return { allPostsCount: await count('/post/count/all') };
      const [allPostsCount, myPostsCount, followingPostsCount] = await Promise.all([
        count('/post/count/all'),
        count('/post/count/my'),
        count('/post/count/following'),
      ]);
      return { allPostsCount, myPostsCount, followingPostsCount };
    } catch (e) {
      return rejectWithValue(errorMessage(e, POST_FALLBACK.counts));
    }
  },
);

type Status = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface PostsState {
  publicPosts: Post[];
  publicTotal: number;
  publicPage: number;
  publicStatus: Status;
  currentPost: Post | null;
  currentStatus: Status;
  /** The request the open post waits for; answers to any other are stale and dropped. */
  currentRequestId: string | null;
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
  currentRequestId: null,
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
      // Another user's own and following counts are not this one's.
      .addCase(sessionUserChanged, (state) => {
        state.counts.myPostsCount = 0;
        state.counts.followingPostsCount = 0;
      })
      .addCase(fetchPost.pending, (state, action) => {
        state.currentStatus = 'loading';
        state.currentRequestId = action.meta.requestId;
        state.error = null;
      })
      .addCase(fetchPost.fulfilled, (state, action) => {
        if (state.currentRequestId !== action.meta.requestId) return;
        state.currentRequestId = null;
        state.currentStatus = 'succeeded';
        state.currentPost = action.payload;
      })
      .addCase(fetchPost.rejected, (state, action) => {
        if (state.currentRequestId !== action.meta.requestId) return;
        state.currentRequestId = null;
        state.currentStatus = 'failed';
        state.currentPost = null;
        state.error = action.payload ?? POST_FALLBACK.post;
      })
      // Sets the counts that are present and keeps the others; an event with none of them
      // makes the posts listener refetch every count.
      .addCase(socketEvents.postCountsUpdated, (state, action) => {
        Object.assign(state.counts, countsIn(action.payload));
      })
      .addCase(fetchPostCounts.fulfilled, (state, action) => {
        Object.assign(state.counts, action.payload);
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
