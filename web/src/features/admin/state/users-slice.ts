/**
 * The users section: the paged user list with its search and sort, the users found by the
 * pickers, block, role and delete. Block and role outcomes are read from the server's message
 * (seed 001 §4); eligibility answers update the user in both lists.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { ADMIN_FALLBACK, adminApi, type UserQuery } from '../admin-api';
import type { AdminUser } from '../admin-types';
import { withRetry } from '../retry';
import { checkUserEligibility, ELIGIBILITY_CHANGES } from './eligibility-slice';
import { emptyList, failed, loaded, loading, removeFrom, sectionThunk, totalPagesOf, type PagedList } from './paged-list';

export interface UsersState {
  users: PagedList<AdminUser> & { query: Required<Pick<UserQuery, 'sortField' | 'sortOrder'>> & { search: string } };
  /** Users found by the pickers (payouts, notices, feedback prompts). */
  allUsers: AdminUser[];
}

export const initialUsersState = (): UsersState => ({
  users: { ...emptyList<AdminUser>(), query: { search: '', sortField: 'name', sortOrder: 'asc' } },
  allUsers: [],
});

/** Whether a block answer says the user or post is now blocked ("unblocked" is another word). */
export const messageSaysBlocked = (message: string | null | undefined) => /\bblocked\b/i.test(message ?? '');
/** Whether a role answer says the user is now an administrator. */
export const messageSaysAdmin = (message: string | null | undefined) => /\badmin\b/i.test(message ?? '');

const thunk = sectionThunk<UsersState>();

/** The user list (with the retry helper); the query is remembered for the next page. */
export const fetchUsers = thunk<{ users: AdminUser[]; total: number; totalPages: number; page: number }, UserQuery | void>(
  'fetchUsers',
  ADMIN_FALLBACK.fetchUsers,
  async (arg, { getState }) => {
    const { query, page } = getState().admin.users;
    const q = { ...query, page, ...(arg ?? {}) };
    const r = await withRetry(() => adminApi.users(q));
    const total = Number(r?.totalUsers ?? r?.total ?? 0);
    return { users: r?.users ?? [], total, totalPages: Number(r?.totalPages ?? totalPagesOf(total)), page: Number(r?.page ?? q.page ?? 1) };
  },
);

/** Users for the pickers (search by name or email). */
export const searchAllUsers = thunk<AdminUser[], string>('searchAllUsers', ADMIN_FALLBACK.fetchUsers, async (search) => {
  const r = await adminApi.users({ search, page: 1, limit: 20, sortField: 'name', sortOrder: 'asc' });
  return r?.users ?? [];
});

export const toggleBlockUser = thunk<{ userId: string; message: string; data: AdminUser | null }, string>(
  'toggleBlockUser',
  ADMIN_FALLBACK.toggleBlockUser,
  async (userId) => {
    const r = await adminApi.toggleBlockUser(userId);
    return { userId, message: r?.message ?? '', data: r?.data ?? null };
  },
);

export const toggleUserRole = thunk<{ userId: string; message: string; data: AdminUser | null }, string>(
  'toggleUserRole',
  ADMIN_FALLBACK.toggleUserRole,
  async (userId) => {
    const r = await adminApi.toggleUserRole(userId);
    return { userId, message: r?.message ?? '', data: r?.data ?? null };
  },
);

export const deleteUser = thunk<{ userId: string; message: string }, string>('deleteUser', ADMIN_FALLBACK.deleteUser, async (userId) => {
  const r = await adminApi.deleteUser(userId);
  return { userId, message: r?.message ?? 'User deleted' };
});

function updateUser(state: UsersState, userId: string, change: Partial<AdminUser>) {
  for (const list of [state.users.items, state.allUsers]) {
    const user = list.find((u) => u._id === userId);
    if (user) Object.assign(user, change);
  }
}

export const usersSlice = createSlice({
  name: 'admin',
  initialState: initialUsersState,
  reducers: {
    userQueryChanged(state, action: PayloadAction<Partial<UsersState['users']['query']>>) {
      state.users.query = { ...state.users.query, ...action.payload };
      state.users.page = 1;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchUsers.pending, (state) => loading(state.users))
      .addCase(fetchUsers.fulfilled, (state, action) => loaded(state.users, { ...action.payload, items: action.payload.users }))
      .addCase(fetchUsers.rejected, (state, action) => failed(state.users, action.payload, ADMIN_FALLBACK.fetchUsers))
      .addCase(searchAllUsers.fulfilled, (state, action) => {
        state.allUsers = action.payload;
      })
      .addCase(toggleBlockUser.fulfilled, (state, action) => {
        updateUser(state, action.payload.userId, { blocked: messageSaysBlocked(action.payload.message) });
      })
      .addCase(toggleUserRole.fulfilled, (state, action) => {
        updateUser(state, action.payload.userId, { role: messageSaysAdmin(action.payload.message) ? 'admin' : 'user' });
      })
      .addCase(deleteUser.fulfilled, (state, action) => {
        removeFrom(state.users, action.payload.userId);
        state.allUsers = state.allUsers.filter((u) => u._id !== action.payload.userId);
      })
      .addCase(checkUserEligibility.fulfilled, (state, action) => {
        const { overrideInfo, isEligible } = action.payload;
        updateUser(
          state,
          action.payload.userId,
          overrideInfo
            ? { isEligibleForSubscription: overrideInfo.isEligibleForSubscription, bypassSubscriptionCriteria: overrideInfo.bypassSubscriptionCriteria }
            : { isEligibleForSubscription: isEligible },
        );
      });
    for (const change of ELIGIBILITY_CHANGES) {
      builder.addCase(change.fulfilled, (state, action) => {
        const user = action.payload.user;
        if (!user) return;
        updateUser(state, action.payload.userId, {
          isEligibleForSubscription: user.isEligibleForSubscription,
          bypassSubscriptionCriteria: user.bypassSubscriptionCriteria,
          milestoneOverride: user.milestoneOverride,
        });
      });
    }
  },
});

export const { userQueryChanged } = usersSlice.actions;
