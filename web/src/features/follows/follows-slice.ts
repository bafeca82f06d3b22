/**
 * Follows (seed 001 §3 "Follow state", §4 "Follow"): whether the user follows someone, and the
 * followers and following lists with count, page and totalPages. Following adds to the following
 * list and raises its count; unfollowing removes and lowers it (never below 0); a follow-status
 * result reconciles the list.
 */
import { createAsyncThunk, createSlice } from '@reduxjs/toolkit';
import { errorMessage, http } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';

export const FOLLOW_PAGE_SIZE = 12;
export const FOLLOW_FALLBACK = {
  follow: 'Failed to follow user',
  unfollow: 'Failed to unfollow user',
  status: 'Failed to fetch follow status',
  list: 'Failed to fetch follows',
} as const;

export interface FollowPerson {
  _id: string;
  name: string;
  avatar?: string | null;
  isFollowing?: boolean;
  followedAt?: string;
}

export interface FollowList {
  list: FollowPerson[];
  count: number;
  page: number;
  totalPages: number;
  status: 'idle' | 'loading' | 'succeeded' | 'failed';
  error: string | null;
}

export interface FollowsState {
  /** userId → whether the signed-in user follows them (and that user's follower count, when known). */
  status: Record<string, { isFollowing: boolean; followersCount?: number; pending: boolean; error: string | null }>;
  followers: FollowList;
  following: FollowList;
}

const emptyList = (): FollowList => ({ list: [], count: 0, page: 1, totalPages: 0, status: 'idle', error: null });
export const initialFollowsState: FollowsState = { status: {}, followers: emptyList(), following: emptyList() };

type Config = { rejectValue: string; state: { auth: { isAuthenticated: boolean } } };

export const fetchFollowStatus = createAsyncThunk<boolean, string, Config>(
  'follows/status',
  async (userId, { rejectWithValue }) => {
    try {
      const r = await http.get<{ isFollowing?: boolean }>(`/follow/status/${encodeURIComponent(userId)}`, FOLLOW_FALLBACK.status);
      return Boolean(r?.isFollowing);
    } catch (e) {
      return rejectWithValue(errorMessage(e, FOLLOW_FALLBACK.status));
    }
  },
  { condition: (_, { getState }) => getState().auth.isAuthenticated },
);

type FollowAnswer = { isFollowing: boolean; followersCount?: number };

export const followUser = createAsyncThunk<FollowAnswer, { user: FollowPerson }, Config>('follows/follow', async ({ user }, { rejectWithValue }) => {
  try {
    const r = await http.post<FollowAnswer>(`/follow/${encodeURIComponent(user._id)}`, {}, FOLLOW_FALLBACK.follow);
    return { isFollowing: r?.isFollowing ?? true, followersCount: r?.followersCount };
  } catch (e) {
    return rejectWithValue(errorMessage(e, FOLLOW_FALLBACK.follow));
  }
});

export const unfollowUser = createAsyncThunk<FollowAnswer, { userId: string }, Config>('follows/unfollow', async ({ userId }, { rejectWithValue }) => {
  try {
    const r = await http.post<FollowAnswer>(`/follow/unfollow/${encodeURIComponent(userId)}`, {}, FOLLOW_FALLBACK.unfollow);
    return { isFollowing: r?.isFollowing ?? false, followersCount: r?.followersCount };
  } catch (e) {
    return rejectWithValue(errorMessage(e, FOLLOW_FALLBACK.unfollow));
  }
});

export const fetchFollowList = createAsyncThunk<
  { list: FollowPerson[]; count: number; page: number; totalPages: number },
  { which: 'followers' | 'following'; page?: number; userId?: string },
  Config
>('follows/list', async ({ which, page = 1, userId }, { rejectWithValue }) => {
  try {
    const r = await http.get<{ list?: FollowPerson[]; count?: number; page?: number; totalPages?: number }>(`/follow/${which}`, FOLLOW_FALLBACK.list, {
      page,
      limit: FOLLOW_PAGE_SIZE,
      userId,
    });
    return { list: r?.list ?? [], count: Number(r?.count) || 0, page: Number(r?.page) || page, totalPages: Number(r?.totalPages) || 0 };
  } catch (e) {
    return rejectWithValue(errorMessage(e, FOLLOW_FALLBACK.list));
  }
});

function entry(state: FollowsState, userId: string) {
  return (state.status[userId] ??= { isFollowing: false, pending: false, error: null });
}

const followsSlice = createSlice({
  name: 'follows',
  initialState: initialFollowsState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(sessionUserChanged, () => initialFollowsState)
      .addCase(fetchFollowStatus.fulfilled, (state, action) => {
        const userId = action.meta.arg;
        entry(state, userId).isFollowing = action.payload;
        // Reconcile the following list with what the server says.
        const listed = state.following.list.some((p) => p._id === userId);
        if (!action.payload && listed) {
          state.following.list = state.following.list.filter((p) => p._id !== userId);
          state.following.count = Math.max(0, state.following.count - 1);
        }
      })
      .addCase(followUser.pending, (state, action) => {
        const e = entry(state, action.meta.arg.user._id);
        e.pending = true;
        e.error = null;
      })
      .addCase(followUser.fulfilled, (state, action) => {
        const { user } = action.meta.arg;
        const e = entry(state, user._id);
        const was = e.isFollowing;
        Object.assign(e, { pending: false, isFollowing: action.payload.isFollowing });
        if (action.payload.followersCount !== undefined) e.followersCount = action.payload.followersCount;
        if (!was && !state.following.list.some((p) => p._id === user._id)) {
          state.following.list.unshift({ ...user, isFollowing: true });
          state.following.count += 1;
        }
      })
      .addCase(followUser.rejected, (state, action) => {
        const e = entry(state, action.meta.arg.user._id);
        e.pending = false;
        e.error = action.payload ?? FOLLOW_FALLBACK.follow;
      })
      .addCase(unfollowUser.pending, (state, action) => {
        const e = entry(state, action.meta.arg.userId);
        e.pending = true;
        e.error = null;
      })
      .addCase(unfollowUser.fulfilled, (state, action) => {
        const { userId } = action.meta.arg;
        const e = entry(state, userId);
        Object.assign(e, { pending: false, isFollowing: action.payload.isFollowing });
        if (action.payload.followersCount !== undefined) e.followersCount = action.payload.followersCount;
        if (state.following.list.some((p) => p._id === userId)) {
          state.following.list = state.following.list.filter((p) => p._id !== userId);
        }
        state.following.count = Math.max(0, state.following.count - 1);
      })
      .addCase(unfollowUser.rejected, (state, action) => {
        const e = entry(state, action.meta.arg.userId);
        e.pending = false;
        e.error = action.payload ?? FOLLOW_FALLBACK.unfollow;
      })
      .addCase(fetchFollowList.pending, (state, action) => {
        state[action.meta.arg.which].status = 'loading';
        state[action.meta.arg.which].error = null;
      })
      .addCase(fetchFollowList.fulfilled, (state, action) => {
        const target = state[action.meta.arg.which];
        const { list, count, page, totalPages } = action.payload;
        const seen = new Set(page <= 1 ? [] : target.list.map((p) => p._id));
        target.list = [...(page <= 1 ? [] : target.list), ...list.filter((p) => !seen.has(p._id))];
        Object.assign(target, { count, page, totalPages, status: 'succeeded' });
      })
      .addCase(fetchFollowList.rejected, (state, action) => {
        state[action.meta.arg.which].status = 'failed';
        state[action.meta.arg.which].error = action.payload ?? FOLLOW_FALLBACK.list;
      });
  },
});

export const followsReducer = followsSlice.reducer;
export const selectFollowStatus = (state: { follows: FollowsState }, userId: string) => state.follows.status[userId];
