/** The own profile and online users (seed 000 §3 "User"). */
import { createAsyncThunk, createSlice } from '@reduxjs/toolkit';
import { errorMessage, http } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
import type { UserSummary } from '@/types/entities';
import { socketEvents } from '@/features/socket';

export const USER_FALLBACK = {
  fetchUser: 'Failed to fetch user',
  invalidUser: 'Invalid user data',
  updateUser: 'Failed to update user',
  online: 'Failed to fetch users',
} as const;

/** How long a user error stays (seed 000 §8 "a user error state clears after 3 seconds"). */
export const USER_ERROR_CLEAR_MS = 3000;

type Status = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface UsersState {
  profile: UserSummary | null;
  status: Status;
  error: string | null;
  online: { users: UserSummary[]; guests: number; count: number; status: Status; error: string | null };
}

export const initialUsersState: UsersState = {
  profile: null,
  status: 'idle',
  error: null,
  online: { users: [], guests: 0, count: 0, status: 'idle', error: null },
};

export const fetchCurrentUser = createAsyncThunk<UserSummary, void, { rejectValue: string }>(
  'users/fetchCurrent',
  async (_, { rejectWithValue }) => {
    try {
      const r = await http.get<{ data?: UserSummary }>('/user/get-user', USER_FALLBACK.fetchUser);
      if (!r?.data) return rejectWithValue(USER_FALLBACK.invalidUser);
      return r.data;
    } catch (e) {
      return rejectWithValue(errorMessage(e, USER_FALLBACK.fetchUser));
    }
  },
);

export const updateCurrentUser = createAsyncThunk<UserSummary, Partial<UserSummary>, { rejectValue: string }>(
  'users/updateCurrent',
  async (changes, { rejectWithValue }) => {
    try {
      const r = await http.patch<{ data?: UserSummary }>('/user/update-user', changes, USER_FALLBACK.updateUser);
      if (!r?.data) return rejectWithValue(USER_FALLBACK.invalidUser);
      return r.data;
    } catch (e) {
      return rejectWithValue(errorMessage(e, USER_FALLBACK.updateUser));
    }
  },
);

export const fetchOnlineUsers = createAsyncThunk<
  { users: UserSummary[]; guests: number; count: number },
  void,
  { rejectValue: string }
>('users/fetchOnline', async (_, { rejectWithValue }) => {
  try {
    const r = await http.get<{ users?: UserSummary[]; guests?: number | unknown[]; count?: number }>('/user/online', USER_FALLBACK.online);
    const users = r?.users ?? [];
    // The number of guest connections (a list of guests is counted).
    const guests = Array.isArray(r?.guests) ? r.guests.length : Number(r?.guests) || 0;
    return { users, guests, count: Number(r?.count) || users.length + guests };
  } catch (e) {
    return rejectWithValue(errorMessage(e, USER_FALLBACK.online));
  }
});

const usersSlice = createSlice({
  name: 'users',
  initialState: initialUsersState,
  reducers: {
    userErrorCleared(state) {
      state.error = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionUserChanged, (state) => {
        state.profile = null;
        state.status = 'idle';
        state.error = null;
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
      .addCase(updateCurrentUser.fulfilled, (state, action) => {
        state.profile = { ...state.profile, ...action.payload };
      })
      .addCase(updateCurrentUser.rejected, (state, action) => {
        state.error = action.payload ?? USER_FALLBACK.updateUser;
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
        if (!action.payload.isOnline) {
          state.online.users = state.online.users.filter((u) => u._id !== action.payload.userId);
        }
      });
  },
});

export const { userErrorCleared } = usersSlice.actions;
export const usersReducer = usersSlice.reducer;
export const selectProfile = (state: { users: UsersState }) => state.users.profile;
export const selectOnlineUsers = (state: { users: UsersState }) => state.users.online;
