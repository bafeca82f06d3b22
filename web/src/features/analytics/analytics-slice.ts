/**
 * Analytics (seed 001 §3 "Analytics", §4 "Analytics fetches go idle, loading, succeeded or
 * failed"): an author's engagement over time and one post's numbers, each with its own status.
 */
import { createAsyncThunk, createSlice } from '@reduxjs/toolkit';
import { errorMessage, http } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';

export const ANALYTICS_FALLBACK = {
  post: 'Failed to fetch post stats',
  user: 'Failed to fetch user engagement stats',
} as const;
/** Days the charts cover by default. */
export const ANALYTICS_DAYS = 30;

/** One UTC day of a series. */
export interface DayStats {
  date: string;
  views: number;
  likes: number;
  bookmarks: number;
  shares: number;
  comments: number;
  /** Seconds. */
  readingTime: number;
}

export interface PostStats {
  postId: string;
  title: string;
  slug: string;
  views: number;
  likes: number;
  bookmarks: number;
  shares: number;
  comments: number;
  totalReadingTime: number;
  averageReadingTime: number;
  readers: number;
  daily: DayStats[];
}

export interface UserEngagement {
  userId: string;
  posts: number;
  views: number;
  likes: number;
  bookmarks: number;
  shares: number;
  comments: number;
  totalReadingTime: number;
  averageReadingTime: number;
  readers: number;
  followers: number;
  following: number;
  engagementRate: number;
  topPosts: { _id: string; title: string; slug: string; views: number; likes: number; comments: number }[];
  daily: DayStats[];
}

type Status = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface AnalyticsState {
  postStats: Record<string, { data: PostStats | null; status: Status; error: string | null }>;
  userEngagement: { userId: string | null; data: UserEngagement | null; status: Status; error: string | null; requestId: string | null };
}

export const initialAnalyticsState: AnalyticsState = {
  postStats: {},
  userEngagement: { userId: null, data: null, status: 'idle', error: null, requestId: null },
};

type Config = { rejectValue: string };

export const fetchPostStats = createAsyncThunk<PostStats, { postId: string; days?: number }, Config>(
  'analytics/post',
  async ({ postId, days = ANALYTICS_DAYS }, { rejectWithValue }) => {
    try {
      return await http.get<PostStats>(`/post/analytics/post/${encodeURIComponent(postId)}`, ANALYTICS_FALLBACK.post, { days });
    } catch (e) {
      return rejectWithValue(errorMessage(e, ANALYTICS_FALLBACK.post));
    }
  },
);

/** The signed-in author's engagement (`userId`: another author's, for administrators). */
export const fetchUserEngagement = createAsyncThunk<UserEngagement, { userId?: string; days?: number }, Config>(
  'analytics/user',
  async ({ userId, days = ANALYTICS_DAYS }, { rejectWithValue }) => {
    try {
      return await http.get<UserEngagement>('/post/analytics/user-engagement', ANALYTICS_FALLBACK.user, { days, userId });
    } catch (e) {
      return rejectWithValue(errorMessage(e, ANALYTICS_FALLBACK.user));
    }
  },
);

const analyticsSlice = createSlice({
  name: 'analytics',
  initialState: initialAnalyticsState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(sessionUserChanged, () => initialAnalyticsState)
      .addCase(fetchPostStats.pending, (state, action) => {
        const current = state.postStats[action.meta.arg.postId];
        state.postStats[action.meta.arg.postId] = { data: current?.data ?? null, status: 'loading', error: null };
      })
      .addCase(fetchPostStats.fulfilled, (state, action) => {
        state.postStats[action.meta.arg.postId] = { data: action.payload, status: 'succeeded', error: null };
      })
      .addCase(fetchPostStats.rejected, (state, action) => {
        state.postStats[action.meta.arg.postId] = { data: null, status: 'failed', error: action.payload ?? ANALYTICS_FALLBACK.post };
      })
      .addCase(fetchUserEngagement.pending, (state, action) => {
        const userId = action.meta.arg.userId ?? null;
        const keep = state.userEngagement.userId === userId ? state.userEngagement.data : null;
        state.userEngagement = { userId, data: keep, status: 'loading', error: null, requestId: action.meta.requestId };
      })
      .addCase(fetchUserEngagement.fulfilled, (state, action) => {
        if (state.userEngagement.requestId !== action.meta.requestId) return;
        Object.assign(state.userEngagement, { data: action.payload, status: 'succeeded', requestId: null });
      })
      .addCase(fetchUserEngagement.rejected, (state, action) => {
        if (state.userEngagement.requestId !== action.meta.requestId) return;
        Object.assign(state.userEngagement, { data: null, status: 'failed', error: action.payload ?? ANALYTICS_FALLBACK.user, requestId: null });
      });
  },
});

export const analyticsReducer = analyticsSlice.reducer;
export const selectUserEngagement = (state: { analytics: AnalyticsState }) => state.analytics.userEngagement;
export const selectPostStats = (state: { analytics: AnalyticsState }, postId: string) => state.analytics.postStats[postId];
