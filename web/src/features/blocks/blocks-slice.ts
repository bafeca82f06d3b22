/**
 * Blocks (seed 001 §3 "Block": a success message and an error; §7 "Blocks"): blocking and
 * unblocking someone, and the list of people the signed-in user blocked (for settings).
 */
import { createAsyncThunk, createSlice } from '@reduxjs/toolkit';
import type { GetBlockListApiResponse, PostBlockBlockUserByIdApiResponse, PostBlockUnblockApiResponse } from '@/api/endpoints';
import { errorMessage, http } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';

export const BLOCK_FALLBACK = {
  block: 'Block failed',
  unblock: 'Unblock failed',
  list: 'Failed to fetch blocked users',
} as const;

export interface BlockedUser {
  _id: string;
  name: string;
  avatar?: string | null;
  blockedAt?: string;
}

type Status = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface BlocksState {
  /** The last success message ('User blocked successfully', 'User unblocked successfully'). */
  message: string | null;
  error: string | null;
  /** User ids with a block or unblock in flight. */
  pending: string[];
  list: BlockedUser[];
  listStatus: Status;
}

export const initialBlocksState: BlocksState = { message: null, error: null, pending: [], list: [], listStatus: 'idle' };

type Config = { rejectValue: string };

export const blockUser = createAsyncThunk<string, { userId: string; name?: string; avatar?: string | null }, Config>(
  'blocks/block',
  async ({ userId }, { rejectWithValue }) => {
    try {
      const r = await http.post<PostBlockBlockUserByIdApiResponse>(`/block/block-user/${encodeURIComponent(userId)}`, {}, BLOCK_FALLBACK.block);
      return r?.message ?? 'User blocked successfully';
    } catch (e) {
      return rejectWithValue(errorMessage(e, BLOCK_FALLBACK.block));
    }
  },
);

export const unblockUser = createAsyncThunk<string, { userId: string }, Config>('blocks/unblock', async ({ userId }, { rejectWithValue }) => {
  try {
    const r = await http.post<PostBlockUnblockApiResponse>('/block/unblock', { blockedUserId: userId }, BLOCK_FALLBACK.unblock);
    return r?.message ?? 'User unblocked successfully';
  } catch (e) {
    return rejectWithValue(errorMessage(e, BLOCK_FALLBACK.unblock));
  }
});

export const fetchBlockedUsers = createAsyncThunk<BlockedUser[], void, Config>('blocks/list', async (_, { rejectWithValue }) => {
  try {
    const r = await http.get<GetBlockListApiResponse>('/block/list', BLOCK_FALLBACK.list);
    return r?.users ?? [];
  } catch (e) {
    return rejectWithValue(errorMessage(e, BLOCK_FALLBACK.list));
  }
});

const without = (ids: string[], id: string) => ids.filter((x) => x !== id);

const blocksSlice = createSlice({
  name: 'blocks',
  initialState: initialBlocksState,
  reducers: {
    blockMessageCleared(state) {
      state.message = null;
      state.error = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionUserChanged, () => initialBlocksState)
      .addCase(blockUser.pending, (state, action) => {
        state.pending.push(action.meta.arg.userId);
        state.message = null;
        state.error = null;
      })
      .addCase(blockUser.fulfilled, (state, action) => {
        const { userId, name, avatar } = action.meta.arg;
        state.pending = without(state.pending, userId);
        state.message = action.payload;
        if (!state.list.some((u) => u._id === userId)) {
          state.list.unshift({ _id: userId, name: name ?? '', avatar: avatar ?? null, blockedAt: new Date().toISOString() });
        }
      })
      .addCase(blockUser.rejected, (state, action) => {
        state.pending = without(state.pending, action.meta.arg.userId);
        state.error = action.payload ?? BLOCK_FALLBACK.block;
      })
      .addCase(unblockUser.pending, (state, action) => {
        state.pending.push(action.meta.arg.userId);
        state.message = null;
        state.error = null;
      })
      .addCase(unblockUser.fulfilled, (state, action) => {
        const { userId } = action.meta.arg;
        state.pending = without(state.pending, userId);
        state.message = action.payload;
        state.list = state.list.filter((u) => u._id !== userId);
      })
      .addCase(unblockUser.rejected, (state, action) => {
        state.pending = without(state.pending, action.meta.arg.userId);
        state.error = action.payload ?? BLOCK_FALLBACK.unblock;
      })
      .addCase(fetchBlockedUsers.pending, (state) => {
        state.listStatus = 'loading';
      })
      .addCase(fetchBlockedUsers.fulfilled, (state, action) => {
        state.listStatus = 'succeeded';
        state.list = action.payload;
      })
      .addCase(fetchBlockedUsers.rejected, (state, action) => {
        state.listStatus = 'failed';
        state.error = action.payload ?? BLOCK_FALLBACK.list;
      });
  },
});

export const { blockMessageCleared } = blocksSlice.actions;
export const blocksReducer = blocksSlice.reducer;
export const selectBlocks = (state: { blocks: BlocksState }) => state.blocks;
