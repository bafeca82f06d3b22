/**
 * Users (seed 000 §3 "User", §4 "Users", §7 "Users"): the own profile, the user list
 * (administrators), the profile being looked at (`selectedUser`), the own activity and the online
 * users. Block and role toggles update the user in the list and in the own profile (a missing
 * `blocked` value flips the local one); deleting a user removes them from the list and clears the
 * own profile if it is the same user; a clear-old-activity success keeps only the last 30 days; a
 * clear-all success empties the activity.
 */
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type {
  GetUserActivityByIdApiResponse,
  GetUserGetAllUserApiResponse,
  GetUserGetSingleUserByIdApiResponse,
  GetUserGetUserApiResponse,
  GetUserOnlineApiResponse,
  PatchUserToggleBlockByIdApiResponse,
  PatchUserToggleRoleByIdApiResponse,
  PatchUserUpdateUserApiResponse,
} from '@/api/endpoints';
import { errorMessage, http } from '@/lib/http';
import { ownProfileChanged, sessionUserChanged } from '@/lib/session';
import type { ActivityEntry, UserProfile, UserSummary } from '@/types/entities';
import { socketEvents } from '@/features/socket';
import { followUser, unfollowUser } from '@/features/follows';
import { blockUser, unblockUser } from '@/features/blocks';

export const USER_FALLBACK = {
  fetchUser: 'Failed to fetch user',
  invalidUser: 'Invalid user data',
  updateUser: 'Failed to update user',
  online: 'Failed to fetch users',
  users: 'Failed to fetch users',
  deleteUser: 'Failed to delete user',
  toggleBlock: 'Failed to toggle block status',
  toggleRole: 'Failed to toggle user role',
  fetchById: 'Failed to fetch user by ID',
  activity: 'Failed to fetch activity',
  clearActivity: 'Failed to clear activity',
  clearOldActivity: 'Failed to clear old activity',
} as const;

/** How long a user error stays (seed 000 §8 "a user error state clears after 3 seconds"). */
export const USER_ERROR_CLEAR_MS = 3000;
/** Page size of the user list (seed 000 §9). */
export const USER_PAGE_SIZE = 10;
/** Activity kept by clear-old (seed 000 §9 "Activity retention on clear-old: 30 days"). */
export const ACTIVITY_RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

type Status = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface UserListQuery {
  page?: number;
  limit?: number;
  search?: string;
  sortField?: string;
  sortOrder?: 'asc' | 'desc';
}

export interface UsersState {
  profile: UserSummary | null;
  status: Status;
  /** The user error (cleared after 3 s by the users listener). */
  error: string | null;
  /** A profile save in flight. */
  saving: boolean;
  users: { list: UserSummary[]; page: number; total: number; totalPages: number; status: Status };
  selectedUser: UserProfile | null;
  selectedStatus: Status;
  selectedError: string | null;
  selectedRequestId: string | null;
  activity: ActivityEntry[];
  activityStatus: Status;
  online: { users: UserSummary[]; guests: number; count: number; status: Status; error: string | null };
}

export const initialUsersState: UsersState = {
  profile: null,
  status: 'idle',
  error: null,
  saving: false,
  users: { list: [], page: 1, total: 0, totalPages: 0, status: 'idle' },
  selectedUser: null,
  selectedStatus: 'idle',
  selectedError: null,
  selectedRequestId: null,
  activity: [],
  activityStatus: 'idle',
  online: { users: [], guests: 0, count: 0, status: 'idle', error: null },
};

type Config = { rejectValue: string };

/** A thunk whose failure is the server's message or the spec's fallback. */
function call<Result, Arg>(type: string, fallback: string, run: (arg: Arg) => Promise<Result>) {
  return createAsyncThunk<Result, Arg, Config>(type, async (arg, { rejectWithValue }) => {
    try {
      return await run(arg);
    } catch (e) {
      return rejectWithValue(errorMessage(e, fallback));
    }
  });
}

export const fetchCurrentUser = createAsyncThunk<UserSummary, void, Config>('users/fetchCurrent', async (_, { rejectWithValue }) => {
  try {
    const r = await http.get<GetUserGetUserApiResponse>('/user/get-user', USER_FALLBACK.fetchUser);
    if (!r?.data) return rejectWithValue(USER_FALLBACK.invalidUser);
    return r.data;
  } catch (e) {
    return rejectWithValue(errorMessage(e, USER_FALLBACK.fetchUser));
  }
});

/** The editable profile fields; `avatar` may be a picture as a data URL. */
export type ProfileChanges = Partial<Pick<UserSummary, 'name' | 'avatar' | 'bio' | 'region' | 'website'>> & { dailyPostEmail?: boolean };

export const updateCurrentUser = createAsyncThunk<UserSummary, ProfileChanges, Config>(
  'users/updateCurrent',
  async (changes, { rejectWithValue, dispatch }) => {
    try {
      const r = await http.patch<PatchUserUpdateUserApiResponse>('/user/update-user', changes, USER_FALLBACK.updateUser);
      if (!r?.data) return rejectWithValue(USER_FALLBACK.invalidUser);
      dispatch(ownProfileChanged({ _id: r.data._id, name: r.data.name, avatar: r.data.avatar ?? null }));
      return r.data;
    } catch (e) {
      return rejectWithValue(errorMessage(e, USER_FALLBACK.updateUser));
    }
  },
);

export const fetchOnlineUsers = createAsyncThunk<{ users: UserSummary[]; guests: number; count: number }, void, Config>(
  'users/fetchOnline',
  async (_, { rejectWithValue }) => {
    try {
      const r = await http.get<GetUserOnlineApiResponse>('/user/online', USER_FALLBACK.online);
      const users = r?.users ?? [];
      // The number of guest connections (a list of guests is counted).
      const guests = Array.isArray(r?.guests) ? r.guests.length : Number(r?.guests) || 0;
      return { users, guests, count: Number(r?.count) || users.length + guests };
    } catch (e) {
      return rejectWithValue(errorMessage(e, USER_FALLBACK.online));
    }
  },
);

/** The user list (administrators): page, limit 10, search, sortField name, sortOrder asc. */
export const fetchUsers = call('users/fetchAll', USER_FALLBACK.users, async (query: UserListQuery = {}) => {
  const page = query.page ?? 1;
  const r = await http.get<GetUserGetAllUserApiResponse>(
    '/user/get-all-user',
    USER_FALLBACK.users,
    {
      page,
      limit: query.limit ?? USER_PAGE_SIZE,
      search: query.search,
      sortField: query.sortField ?? 'name',
      sortOrder: query.sortOrder ?? 'asc',
    },
  );
  const total = Number(r?.total ?? r?.totalUsers) || 0;
  return { users: r?.users ?? [], page: Number(r?.page) || page, total, totalPages: Number(r?.totalPages) || 0 };
});

export const fetchUserById = call('users/fetchById', USER_FALLBACK.fetchById, async (id: string) => {
  const r = await http.get<GetUserGetSingleUserByIdApiResponse>(`/user/get-single-user/${encodeURIComponent(id)}`, USER_FALLBACK.fetchById);
  if (!r?.data) throw new Error(USER_FALLBACK.invalidUser);
  return r.data;
});

export const toggleUserBlock = call('users/toggleBlock', USER_FALLBACK.toggleBlock, async (id: string) => {
  const r = await http.patch<PatchUserToggleBlockByIdApiResponse>(`/user/toggle-block/${encodeURIComponent(id)}`, {}, USER_FALLBACK.toggleBlock);
  return { id, blocked: typeof r?.data?.blocked === 'boolean' ? r.data.blocked : undefined };
});

export const toggleUserRole = call('users/toggleRole', USER_FALLBACK.toggleRole, async (id: string) => {
  const r = await http.patch<PatchUserToggleRoleByIdApiResponse>(`/user/toggle-role/${encodeURIComponent(id)}`, {}, USER_FALLBACK.toggleRole);
  return { id, role: r?.data?.role };
});

export const deleteUser = call('users/delete', USER_FALLBACK.deleteUser, async (userId: string) => {
  await http.delete(`/user/delete-user`, USER_FALLBACK.deleteUser, { userId });
  return userId;
});

export const fetchActivity = call('users/fetchActivity', USER_FALLBACK.activity, async (userId: string) => {
  const r = await http.get<GetUserActivityByIdApiResponse>(`/user/activity/${encodeURIComponent(userId)}`, USER_FALLBACK.activity);
  return r?.activity ?? [];
});

export const clearActivity = call('users/clearActivity', USER_FALLBACK.clearActivity, async (_: void) => {
  await http.delete('/user/activity/clear', USER_FALLBACK.clearActivity);
});

export const clearOldActivity = call('users/clearOldActivity', USER_FALLBACK.clearOldActivity, async (_: void) => {
  await http.delete('/user/activity/clear-old', USER_FALLBACK.clearOldActivity);
  return Date.now();
});

function patchUser(state: UsersState, id: string, changes: Partial<UserSummary>) {
  state.users.list = state.users.list.map((u) => (u._id === id ? { ...u, ...changes } : u));
  if (state.profile?._id === id) state.profile = { ...state.profile, ...changes };
  if (state.selectedUser?._id === id) state.selectedUser = { ...state.selectedUser, ...changes };
}

function shiftFollowers(state: UsersState, id: string, delta: number) {
  const u = state.selectedUser;
  if (u?._id === id && typeof u.followersCount === 'number') u.followersCount = Math.max(0, u.followersCount + delta);
}

const usersSlice = createSlice({
  name: 'users',
  initialState: initialUsersState,
  reducers: {
    userErrorCleared(state) {
      state.error = null;
    },
    /** The profile an author's page was drawn with on the server (its initial data). */
    selectedUserPreloaded(state, action: PayloadAction<UserProfile>) {
      state.selectedUser = action.payload;
      state.selectedStatus = 'succeeded';
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionUserChanged, (state) => {
        state.profile = null;
        state.status = 'idle';
        state.error = null;
        state.users = initialUsersState.users;
        state.activity = [];
        state.activityStatus = 'idle';
        // What the profile says about the viewer (follow, block) belonged to the previous user.
        state.selectedUser = null;
        state.selectedStatus = 'idle';
      })
      .addCase(fetchCurrentUser.pending, (state) => {
        state.status = 'loading';
        state.error = null;
      })
      .addCase(fetchCurrentUser.fulfilled, (state, action) => {
        state.status = 'succeeded';
        state.profile = action.payload;
      })
      .addCase(fetchCurrentUser.rejected, (state, action) => {
        state.status = 'failed';
        state.error = action.payload ?? USER_FALLBACK.fetchUser;
      })
      .addCase(updateCurrentUser.pending, (state) => {
        state.saving = true;
        state.error = null;
      })
      .addCase(updateCurrentUser.fulfilled, (state, action) => {
        state.saving = false;
        state.profile = { ...state.profile, ...action.payload };
      })
      .addCase(updateCurrentUser.rejected, (state, action) => {
        state.saving = false;
        state.error = action.payload ?? USER_FALLBACK.updateUser;
      })
      .addCase(ownProfileChanged, (state, action) => {
        const { _id, name, avatar } = action.payload;
        patchUser(state, _id, { name, avatar });
      })
      .addCase(fetchOnlineUsers.pending, (state) => {
        state.online.status = 'loading';
        state.online.error = null;
      })
      .addCase(fetchOnlineUsers.fulfilled, (state, action) => {
        state.online = { ...action.payload, status: 'succeeded', error: null };
      })
      .addCase(fetchOnlineUsers.rejected, (state, action) => {
        state.online.status = 'failed';
        state.online.error = action.payload ?? USER_FALLBACK.online;
      })
      .addCase(socketEvents.userStatusChanged, (state, action) => {
        const { userId, isOnline } = action.payload;
        if (!isOnline) state.online.users = state.online.users.filter((u) => u._id !== userId);
        if (state.selectedUser?._id === userId) state.selectedUser.isOnline = isOnline;
      })
      .addCase(fetchUsers.pending, (state) => {
        state.users.status = 'loading';
        state.error = null;
      })
      .addCase(fetchUsers.fulfilled, (state, action) => {
        const { users, page, total, totalPages } = action.payload;
        state.users = { list: users, page, total, totalPages, status: 'succeeded' };
      })
      .addCase(fetchUsers.rejected, (state, action) => {
        state.users.status = 'failed';
        state.error = action.payload ?? USER_FALLBACK.users;
      })
      .addCase(fetchUserById.pending, (state, action) => {
        state.selectedStatus = 'loading';
        state.selectedError = null;
        state.selectedRequestId = action.meta.requestId;
        if (state.selectedUser?._id !== action.meta.arg) state.selectedUser = null;
      })
      .addCase(fetchUserById.fulfilled, (state, action) => {
        if (state.selectedRequestId !== action.meta.requestId) return;
        state.selectedRequestId = null;
        state.selectedStatus = 'succeeded';
        state.selectedUser = action.payload;
      })
      .addCase(fetchUserById.rejected, (state, action) => {
        if (state.selectedRequestId !== action.meta.requestId) return;
        state.selectedRequestId = null;
        state.selectedStatus = 'failed';
        state.selectedUser = null;
        state.selectedError = action.payload ?? USER_FALLBACK.fetchById;
      })
      // The block toggle: the server's value, or the local one flipped when it gives none.
      .addCase(toggleUserBlock.fulfilled, (state, action) => {
        const { id, blocked } = action.payload;
        const current = state.users.list.find((u) => u._id === id) ?? (state.profile?._id === id ? state.profile : null);
        patchUser(state, id, { blocked: blocked ?? !current?.blocked });
      })
      .addCase(toggleUserRole.fulfilled, (state, action) => {
        const { id, role } = action.payload;
        const current = state.users.list.find((u) => u._id === id) ?? (state.profile?._id === id ? state.profile : null);
        patchUser(state, id, { role: role ?? (current?.role === 'admin' ? 'user' : 'admin') });
      })
      .addCase(deleteUser.fulfilled, (state, action) => {
        const before = state.users.list.length;
        state.users.list = state.users.list.filter((u) => u._id !== action.payload);
        if (state.users.list.length !== before) state.users.total = Math.max(0, state.users.total - 1);
        if (state.profile?._id === action.payload) state.profile = null;
      })
      .addCase(fetchActivity.pending, (state) => {
        state.activityStatus = 'loading';
      })
      .addCase(fetchActivity.fulfilled, (state, action) => {
        state.activityStatus = 'succeeded';
        state.activity = action.payload;
      })
      .addCase(fetchActivity.rejected, (state, action) => {
        state.activityStatus = 'failed';
        state.error = action.payload ?? USER_FALLBACK.activity;
      })
      .addCase(clearActivity.fulfilled, (state) => {
        state.activity = [];
      })
      .addCase(clearOldActivity.fulfilled, (state, action) => {
        const cutoff = action.payload - ACTIVITY_RETENTION_DAYS * DAY_MS;
        state.activity = state.activity.filter((a) => Date.parse(a.createdAt) >= cutoff);
      })
      // Blocking removes the follows between the two: the viewer no longer follows them.
      .addCase(blockUser.fulfilled, (state, action) => {
        const u = state.selectedUser;
        if (u?._id !== action.meta.arg.userId) return;
        if (u.isFollowing) shiftFollowers(state, u._id, -1);
        u.isFollowing = false;
        u.blockedByYou = true;
      })
      .addCase(unblockUser.fulfilled, (state, action) => {
        if (state.selectedUser?._id === action.meta.arg.userId) state.selectedUser.blockedByYou = false;
      })
      // The profile's follower count moves with the viewer's follow (optimistic, then exact).
      .addCase(followUser.pending, (state, action) => {
        const id = action.meta.arg.user._id;
        if (state.selectedUser?._id === id && !state.selectedUser.isFollowing) {
          state.selectedUser.isFollowing = true;
          shiftFollowers(state, id, 1);
        }
      })
      .addCase(unfollowUser.pending, (state, action) => {
        const id = action.meta.arg.userId;
        if (state.selectedUser?._id === id && state.selectedUser.isFollowing) {
          state.selectedUser.isFollowing = false;
          shiftFollowers(state, id, -1);
        }
      })
      .addCase(followUser.rejected, (state, action) => {
        const id = action.meta.arg.user._id;
        if (state.selectedUser?._id === id && state.selectedUser.isFollowing) {
          state.selectedUser.isFollowing = false;
          shiftFollowers(state, id, -1);
        }
      })
      .addCase(unfollowUser.rejected, (state, action) => {
        const id = action.meta.arg.userId;
        if (state.selectedUser?._id === id && !state.selectedUser.isFollowing) {
          state.selectedUser.isFollowing = true;
          shiftFollowers(state, id, 1);
        }
      })
      .addMatcher(
        (action) => followUser.fulfilled.match(action) || unfollowUser.fulfilled.match(action),
        (state, action: ReturnType<typeof followUser.fulfilled> | ReturnType<typeof unfollowUser.fulfilled>) => {
          const id = 'user' in action.meta.arg ? action.meta.arg.user._id : action.meta.arg.userId;
          const u = state.selectedUser;
          if (u?._id !== id) return;
          u.isFollowing = action.payload.isFollowing;
          if (typeof action.payload.followersCount === 'number') u.followersCount = action.payload.followersCount;
        },
      )
      .addMatcher(
        (action) =>
          [toggleUserBlock.rejected.type, toggleUserRole.rejected.type, deleteUser.rejected.type, clearActivity.rejected.type, clearOldActivity.rejected.type].includes(
            (action as { type: string }).type,
          ),
        (state, action: { payload?: string }) => {
          state.error = action.payload ?? USER_FALLBACK.updateUser;
        },
      );
  },
});

export const { userErrorCleared, selectedUserPreloaded } = usersSlice.actions;
export const usersReducer = usersSlice.reducer;
type WithUsers = { users: UsersState };
export const selectProfile = (state: WithUsers) => state.users.profile;
export const selectOnlineUsers = (state: WithUsers) => state.users.online;
export const selectSelectedUser = (state: WithUsers) => state.users.selectedUser;
export const selectActivity = (state: WithUsers) => state.users.activity;
