/** Guest visits (seed 000 §3 "Guest visit", §4 "Guest visit"). */
import { createAsyncThunk, createSlice } from '@reduxjs/toolkit';
import type { PostPublicGuestVisitApiResponse } from '@/api/endpoints';
import { errorMessage, http } from '@/lib/http';
import { GUEST_ID_KEY, sessionStore, storage } from '@/lib/storage';
import type { GuestVisit } from '@/types/entities';
import { socketEvents } from '@/features/socket';

export const MAX_GUEST_VISITS = 100;
export const TRACK_GUEST_FAILED = 'Failed to track guest visit';
const TRACKED_KEY = 'guestVisitTracked';

export interface GuestState {
  guestId: string | null;
  visits: GuestVisit[];
  error: string | null;
}

export function initialGuestState(): GuestState {
  return { guestId: storage.get(GUEST_ID_KEY), visits: [], error: null };
}

/** Tracked once per browser session; the guest id is kept in local storage. */
export const trackGuestVisit = createAsyncThunk<GuestVisit, void, { rejectValue: string }>(
  'guest/trackVisit',
  async (_, { rejectWithValue }) => {
    sessionStore.set(TRACKED_KEY, '1');
    try {
      const guestId = storage.get(GUEST_ID_KEY);
      const r = await http.post<PostPublicGuestVisitApiResponse>('/public/guest/visit', guestId ? { guestId } : {}, TRACK_GUEST_FAILED);
      if (!r?.guest) return rejectWithValue(TRACK_GUEST_FAILED);
      if (r.guest.guestId) storage.set(GUEST_ID_KEY, r.guest.guestId);
      return r.guest;
    } catch (e) {
      return rejectWithValue(errorMessage(e, TRACK_GUEST_FAILED));
    }
  },
  { condition: () => sessionStore.get(TRACKED_KEY) === null },
);

function addVisit(state: GuestState, visit: GuestVisit) {
  const duplicate = state.visits.some((v) => v.visitCount === visit.visitCount && v.lastVisit === visit.lastVisit);
  if (duplicate) return;
  state.visits = [visit, ...state.visits].slice(0, MAX_GUEST_VISITS);
}

const guestSlice = createSlice({
  name: 'guest',
  initialState: initialGuestState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(trackGuestVisit.fulfilled, (state, action) => {
        state.guestId = action.payload.guestId ?? state.guestId;
        addVisit(state, action.payload);
      })
      .addCase(trackGuestVisit.rejected, (state, action) => {
        if (action.meta.condition) return;
        state.error = action.payload ?? TRACK_GUEST_FAILED;
      })
      .addCase(socketEvents.guestVisitUpdated, (state, action) => addVisit(state, action.payload));
  },
});

export const guestReducer = guestSlice.reducer;
