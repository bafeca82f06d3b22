/**
 * Follows (seed 001 §3 "Follow state", §4 "Follow"): whether the user follows someone, the
 * followers and following lists and the follower locations, each with count, page and
 * totalPages. Following adds to the following list and raises its count; unfollowing removes and
 * lowers it (never below 0); a follow-status result reconciles the list. Follow and unfollow are
 * optimistic: the state changes as the request leaves, goes back if it fails, and the follow
 * status asked afterwards (follows-listeners.ts) settles what the server holds.
 *
 * A list remembers whose it is (`userId`, null for the signed-in user's own): the transitions
 * above apply to the signed-in user's own following list only.
 */
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type {
  GetFollowFollowerLocationsApiResponse,
  GetFollowFollowersApiResponse,
  GetFollowFollowingApiResponse,
  GetFollowStatusByUserIdApiResponse,
  PostFollowByUserIdApiResponse,
  PostFollowUnfollowByUserIdApiResponse,
} from '@/api/endpoints';
import { errorMessage, http } from '@/lib/http';
import { ownProfileChanged, sessionUserChanged } from '@/lib/session';
import type { UserLocation } from '@/types/entities';
import { socketEvents } from '@/features/socket';
import { locationFromEvent, movedLocation } from '@/features/location';
import { blockUser } from '@/features/blocks';

export const FOLLOW_PAGE_SIZE = 12;
/** Page size of follower locations (seed 000 §7, §9). */
export const LOCATION_PAGE_SIZE = 12;
/** Pages read at most when the map gathers every follower location (12 × 50 = 600 points). */
export const MAX_LOCATION_PAGES = 50;
export const FOLLOW_FALLBACK = {
  follow: 'Failed to follow user',
  unfollow: 'Failed to unfollow user',
  status: 'Failed to fetch follow status',
  list: 'Failed to fetch follows',
  locations: 'Failed to fetch follower locations',
} as const;

export interface FollowPerson {
  _id: string;
  name: string;
  avatar?: string | null;
  isFollowing?: boolean;
  followedAt?: string;
}

type Status = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface FollowList {
  /** Whose list it is; null: the signed-in user's own. */
  userId: string | null;
  list: FollowPerson[];
  count: number;
  page: number;
  totalPages: number;
  status: Status;
  error: string | null;
}

/** A follower's latest location, with who they are and whether they are online. */
export type FollowerLocation = UserLocation;

export interface FollowerLocations {
  list: FollowerLocation[];
  count: number;
  page: number;
  totalPages: number;
  status: Status;
  error: string | null;
}

export interface FollowEntry {
  isFollowing: boolean;
  followersCount?: number;
  pending: boolean;
  error: string | null;
  /** What the state was before an optimistic change, to go back to if it fails. */
  before?: { isFollowing: boolean; followersCount?: number; listed: boolean; followingCount: number | null };
  /** Who they are, to put them back in the following list when the status says so. */
  person?: FollowPerson;
}

export interface FollowsState {
  /** userId → whether the signed-in user follows them (and that user's follower count, when known). */
  status: Record<string, FollowEntry>;
  followers: FollowList;
  following: FollowList;
  locations: FollowerLocations;
}

const emptyList = (): FollowList => ({ userId: null, list: [], count: 0, page: 1, totalPages: 0, status: 'idle', error: null });
const emptyLocations = (): FollowerLocations => ({ list: [], count: 0, page: 1, totalPages: 0, status: 'idle', error: null });
export const initialFollowsState: FollowsState = { status: {}, followers: emptyList(), following: emptyList(), locations: emptyLocations() };

type Config = { rejectValue: string; state: { auth: { isAuthenticated: boolean; user?: { _id: string } | null } } };

export const fetchFollowStatus = createAsyncThunk<boolean, string, Config>(
  'follows/status',
  async (userId, { rejectWithValue }) => {
    try {
      const r = await http.get<GetFollowStatusByUserIdApiResponse>(`/follow/status/${encodeURIComponent(userId)}`, FOLLOW_FALLBACK.status);
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
    const r = await http.post<PostFollowByUserIdApiResponse>(`/follow/${encodeURIComponent(user._id)}`, {}, FOLLOW_FALLBACK.follow);
    return { isFollowing: r?.isFollowing ?? true, followersCount: r?.followersCount };
  } catch (e) {
    return rejectWithValue(errorMessage(e, FOLLOW_FALLBACK.follow));
  }
});

export const unfollowUser = createAsyncThunk<FollowAnswer, { userId: string }, Config>('follows/unfollow', async ({ userId }, { rejectWithValue }) => {
  try {
    const r = await http.post<PostFollowUnfollowByUserIdApiResponse>(`/follow/unfollow/${encodeURIComponent(userId)}`, {}, FOLLOW_FALLBACK.unfollow);
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
    const r = await http.get<GetFollowFollowersApiResponse | GetFollowFollowingApiResponse>(`/follow/${which}`, FOLLOW_FALLBACK.list, {
      page,
      limit: FOLLOW_PAGE_SIZE,
      userId,
    });
    return { list: r?.list ?? [], count: Number(r?.count) || 0, page: Number(r?.page) || page, totalPages: Number(r?.totalPages) || 0 };
  } catch (e) {
    return rejectWithValue(errorMessage(e, FOLLOW_FALLBACK.list));
  }
});

type LocationPage = { list: FollowerLocation[]; total: number; totalPages: number; page: number };

async function locationPage(page: number): Promise<LocationPage> {
  const r = await http.get<GetFollowFollowerLocationsApiResponse>(
    '/follow/follower-locations',
    FOLLOW_FALLBACK.locations,
    { page, limit: LOCATION_PAGE_SIZE, includeOffline: true },
  );
  return { list: r?.list ?? [], total: Number(r?.total) || 0, totalPages: Number(r?.totalPages) || 0, page: Number(r?.page) || page };
}

/** One page of the signed-in user's follower locations (page size 12, offline ones included). */
export const fetchFollowerLocations = createAsyncThunk<LocationPage, { page?: number } | void, Config>(
  'follows/locations',
  async (arg, { rejectWithValue }) => {
    try {
      return await locationPage((arg && arg.page) || 1);
    } catch (e) {
      return rejectWithValue(errorMessage(e, FOLLOW_FALLBACK.locations));
    }
  },
);

/** Every follower location, page after page (the map shows them all). */
export const fetchAllFollowerLocations = createAsyncThunk<LocationPage, void, Config>('follows/allLocations', async (_, { rejectWithValue }) => {
  try {
    const first = await locationPage(1);
    const all = [...first.list];
    for (let page = 2; page <= Math.min(first.totalPages, MAX_LOCATION_PAGES); page += 1) {
      all.push(...(await locationPage(page)).list);
    }
    return { list: all, total: first.total, totalPages: first.totalPages, page: Math.min(first.totalPages, MAX_LOCATION_PAGES) || 1 };
  } catch (e) {
    return rejectWithValue(errorMessage(e, FOLLOW_FALLBACK.locations));
  }
});

function entry(state: FollowsState, userId: string): FollowEntry {
  return (state.status[userId] ??= { isFollowing: false, pending: false, error: null });
}

/** The signed-in user's own following list (the one the follow transitions apply to). */
function ownFollowing(state: FollowsState): FollowList | null {
  return state.following.userId === null ? state.following : null;
}

function addFollowing(state: FollowsState, person: FollowPerson) {
  const own = ownFollowing(state);
  if (!own || own.list.some((p) => p._id === person._id)) return false;
  own.list.unshift({ ...person, isFollowing: true });
  own.count += 1;
  return true;
}

function removeFollowing(state: FollowsState, userId: string) {
  const own = ownFollowing(state);
  if (!own) return;
  own.list = own.list.filter((p) => p._id !== userId);
  own.count = Math.max(0, own.count - 1);
}

/** A failed follow or unfollow: everything it changed goes back as it was. */
function restore(state: FollowsState, userId: string, e: FollowEntry, before: NonNullable<FollowEntry['before']>) {
  e.isFollowing = before.isFollowing;
  e.followersCount = before.followersCount;
  const own = ownFollowing(state);
  if (own) {
    const listed = own.list.some((p) => p._id === userId);
    if (before.listed && !listed && e.person) own.list.unshift({ ...e.person, isFollowing: true });
    if (!before.listed && listed) own.list = own.list.filter((p) => p._id !== userId);
    if (before.followingCount !== null) own.count = before.followingCount;
  }
  markInLists(state, userId, before.isFollowing);
}

/** The isFollowing flag of a person shown in any list. */
function markInLists(state: FollowsState, userId: string, isFollowing: boolean) {
  for (const list of [state.followers, state.following]) {
    for (const p of list.list) if (p._id === userId) p.isFollowing = isFollowing;
  }
}

const followsSlice = createSlice({
  name: 'follows',
  initialState: initialFollowsState,
  reducers: {
    /** A profile showed whether the viewer follows this user (so the button needs no extra call). */
    followStatusKnown(state, action: PayloadAction<{ userId: string; isFollowing: boolean; followersCount?: number }>) {
      const e = entry(state, action.payload.userId);
      if (e.pending) return;
      e.isFollowing = action.payload.isFollowing;
      if (action.payload.followersCount !== undefined) e.followersCount = action.payload.followersCount;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionUserChanged, () => initialFollowsState)
      .addCase(fetchFollowStatus.fulfilled, (state, action) => {
        const userId = action.meta.arg;
        const e = entry(state, userId);
        // A follow or unfollow sent since is what counts now; its own status check follows it.
        if (e.pending) return;
        e.isFollowing = action.payload;
        markInLists(state, userId, action.payload);
        // Reconcile the following list with what the server says.
        const own = ownFollowing(state);
        const listed = own?.list.some((p) => p._id === userId) ?? false;
        if (!action.payload && listed) removeFollowing(state, userId);
        if (action.payload && !listed && e.person) addFollowing(state, e.person);
      })
      // Optimistic: followed as the request leaves.
      .addCase(followUser.pending, (state, action) => {
        const { user } = action.meta.arg;
        const e = entry(state, user._id);
        const own = ownFollowing(state);
        e.before = {
          isFollowing: e.isFollowing,
          followersCount: e.followersCount,
          listed: own?.list.some((p) => p._id === user._id) ?? false,
          followingCount: own?.count ?? null,
        };
        e.person = { _id: user._id, name: user.name, avatar: user.avatar ?? null };
        e.pending = true;
        e.error = null;
        if (!e.isFollowing) {
          e.isFollowing = true;
          if (e.followersCount !== undefined) e.followersCount += 1;
          addFollowing(state, user);
        }
        markInLists(state, user._id, true);
      })
      .addCase(followUser.fulfilled, (state, action) => {
        const { user } = action.meta.arg;
        const e = entry(state, user._id);
        Object.assign(e, { pending: false, isFollowing: action.payload.isFollowing, before: undefined });
        if (action.payload.followersCount !== undefined) e.followersCount = action.payload.followersCount;
        if (action.payload.isFollowing) addFollowing(state, user);
      })
      .addCase(followUser.rejected, (state, action) => {
        const { user } = action.meta.arg;
        const e = entry(state, user._id);
        const before = e.before;
        e.pending = false;
        e.error = action.payload ?? FOLLOW_FALLBACK.follow;
        if (before) restore(state, user._id, e, before);
        e.before = undefined;
      })
      .addCase(unfollowUser.pending, (state, action) => {
        const { userId } = action.meta.arg;
        const e = entry(state, userId);
        const own = ownFollowing(state);
        const listed = own?.list.find((p) => p._id === userId);
        e.before = { isFollowing: e.isFollowing, followersCount: e.followersCount, listed: Boolean(listed), followingCount: own?.count ?? null };
        if (listed) e.person = { _id: listed._id, name: listed.name, avatar: listed.avatar ?? null };
        e.pending = true;
        e.error = null;
        if (e.isFollowing && e.followersCount !== undefined) e.followersCount = Math.max(0, e.followersCount - 1);
        e.isFollowing = false;
        // Unfollowing removes the user and lowers the count (never below 0).
        removeFollowing(state, userId);
        markInLists(state, userId, false);
      })
      .addCase(unfollowUser.fulfilled, (state, action) => {
        const e = entry(state, action.meta.arg.userId);
        Object.assign(e, { pending: false, isFollowing: action.payload.isFollowing, before: undefined });
        if (action.payload.followersCount !== undefined) e.followersCount = action.payload.followersCount;
      })
      .addCase(unfollowUser.rejected, (state, action) => {
        const { userId } = action.meta.arg;
        const e = entry(state, userId);
        const before = e.before;
        e.pending = false;
        e.error = action.payload ?? FOLLOW_FALLBACK.unfollow;
        if (before) restore(state, userId, e, before);
        e.before = undefined;
      })
      .addCase(fetchFollowList.pending, (state, action) => {
        const { which, userId = null } = action.meta.arg;
        const target = state[which];
        // Another user's list replaces what was shown.
        if (target.userId !== userId) state[which] = { ...emptyList(), userId };
        state[which].status = 'loading';
        state[which].error = null;
      })
      .addCase(fetchFollowList.fulfilled, (state, action) => {
        const { which, userId = null } = action.meta.arg;
        const target = state[which];
        if (target.userId !== userId) return;
        const { list, count, page, totalPages } = action.payload;
        const seen = new Set(page <= 1 ? [] : target.list.map((p) => p._id));
        target.list = [...(page <= 1 ? [] : target.list), ...list.filter((p) => !seen.has(p._id))];
        Object.assign(target, { count, page, totalPages, status: 'succeeded' });
        for (const p of list) {
          if (typeof p.isFollowing === 'boolean' && !state.status[p._id]?.pending) entry(state, p._id).isFollowing = p.isFollowing;
        }
      })
      .addCase(fetchFollowList.rejected, (state, action) => {
        const { which, userId = null } = action.meta.arg;
        if (state[which].userId !== userId) return;
        state[which].status = 'failed';
        state[which].error = action.payload ?? FOLLOW_FALLBACK.list;
      })
      .addCase(fetchFollowerLocations.pending, (state) => {
        state.locations.status = 'loading';
        state.locations.error = null;
      })
      .addCase(fetchAllFollowerLocations.pending, (state) => {
        state.locations.status = 'loading';
        state.locations.error = null;
      })
      .addCase(fetchFollowerLocations.fulfilled, (state, action) => {
        const { list, total, totalPages, page } = action.payload;
        state.locations = { list, count: total, page, totalPages, status: 'succeeded', error: null };
      })
      .addCase(fetchAllFollowerLocations.fulfilled, (state, action) => {
        const { list, total, totalPages, page } = action.payload;
        state.locations = { list, count: total, page, totalPages, status: 'succeeded', error: null };
      })
      .addCase(fetchFollowerLocations.rejected, (state, action) => {
        state.locations.status = 'failed';
        state.locations.error = action.payload ?? FOLLOW_FALLBACK.locations;
      })
      .addCase(fetchAllFollowerLocations.rejected, (state, action) => {
        state.locations.status = 'failed';
        state.locations.error = action.payload ?? FOLLOW_FALLBACK.locations;
      })
      // A follower moved (debounced by the socket middleware; without userId, lat or lon it is
      // ignored): their point moves and goes to the front.
      .addCase(socketEvents.userLocationUpdated, (state, action) => {
        const location = locationFromEvent(action.payload);
        if (!location) return;
        // Only followers already on the map move: an administrator hears everyone's moves.
        if (!state.locations.list.some((l) => l.userId === location.userId)) return;
        const previous = state.locations.list.find((l) => l.userId === location.userId);
        state.locations.list = [movedLocation(previous, location), ...state.locations.list.filter((l) => l.userId !== location.userId)];
      })
      .addCase(socketEvents.userStatusChanged, (state, action) => {
        for (const l of state.locations.list) if (l.userId === action.payload.userId) l.isOnline = action.payload.isOnline;
      })
      // A block removes the follows between the two users.
      .addCase(blockUser.fulfilled, (state, action) => {
        const { userId } = action.meta.arg;
        const e = entry(state, userId);
        if (e.isFollowing) removeFollowing(state, userId);
        e.isFollowing = false;
        markInLists(state, userId, false);
      })
      .addCase(ownProfileChanged, (state, action) => {
        const { _id, name, avatar } = action.payload;
        for (const list of [state.followers, state.following]) {
          for (const p of list.list) if (p._id === _id) Object.assign(p, { name, avatar });
        }
      });
  },
});

export const { followStatusKnown } = followsSlice.actions;
export const followsReducer = followsSlice.reducer;
export const selectFollowStatus = (state: { follows: FollowsState }, userId: string) => state.follows.status[userId];
export const selectFollowerLocations = (state: { follows: FollowsState }) => state.follows.locations;
