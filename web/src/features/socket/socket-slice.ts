/** Socket connection status (seed 000 §4, seed 001 §4): disconnected → connecting → connected. */
import { createAction, createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { socketEvents } from './socket-events';

export type SocketStatus = 'disconnected' | 'connecting' | 'connected';

export interface SocketState {
  status: SocketStatus;
  onlineCount: number;
  error: string | null;
}

export const initialSocketState: SocketState = { status: 'disconnected', onlineCount: 0, error: null };

/** Open (or re-open with another token) the one socket. Handled by the socket middleware. */
export const socketConnectRequested = createAction<{ token: string | null }>('socket/connectRequested');
export const socketDisconnectRequested = createAction('socket/disconnectRequested');
/** The user signed out: stop joining their rooms on (re)connect. */
export const socketUserLeft = createAction('socket/userLeft');

export const USER_NOT_READY = 'User not ready';

/** Joins the user's rooms (and adminRoom for administrators). */
export const initUserSocket = createAsyncThunk<
  { userId: string; role: string | null },
  { userId: string | null | undefined; role: string | null | undefined },
  { rejectValue: string }
>('socket/initUser', ({ userId, role }, { rejectWithValue }) => {
  if (!userId) return rejectWithValue(USER_NOT_READY);
  return { userId, role: role ?? null };
});

const socketSlice = createSlice({
  name: 'socket',
  initialState: initialSocketState,
  reducers: {
    connected(state) {
      state.status = 'connected';
      state.error = null;
    },
    connectFailed(state, action: PayloadAction<string>) {
      state.status = 'disconnected';
      state.error = action.payload;
    },
    disconnected(state, action: PayloadAction<string | undefined>) {
      state.status = 'disconnected';
      if (action.payload) state.error = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(socketConnectRequested, (state) => {
        if (state.status !== 'connected') state.status = 'connecting';
      })
      .addCase(socketDisconnectRequested, (state) => {
        state.status = 'disconnected';
      })
      .addCase(initUserSocket.rejected, (state, action) => {
        state.error = action.payload ?? USER_NOT_READY;
      })
      .addCase(socketEvents.onlineUsersCountReceived, (state, action) => {
        state.onlineCount = action.payload;
      });
  },
});

export const socketActions = socketSlice.actions;
export const socketReducer = socketSlice.reducer;

type WithSocket = { socket: SocketState };
export const selectSocketStatus = (state: WithSocket) => state.socket.status;
export const selectOnlineCount = (state: WithSocket) => state.socket.onlineCount;
export const selectSocketError = (state: WithSocket) => state.socket.error;
