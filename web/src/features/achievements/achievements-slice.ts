/**
 * Achievements (seed 001 §3 "Achievements": badges list, metrics): the badges a user holds and
 * every badge of the catalogue with what it needs and how far the user is. The signed-in user's
 * own are recalculated (`POST /achievement/achievements/calculate`); another user's are read.
 */
import { createAsyncThunk, createSlice } from '@reduxjs/toolkit';
import { errorMessage, http } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';

export const ACHIEVEMENT_FALLBACK = {
  fetch: 'Failed to fetch achievements',
  calculate: 'Failed to calculate achievements',
} as const;

export interface Badge {
  id: string;
  name: string;
  description: string;
  metric: string;
  threshold: number;
  earnedAt?: string | null;
}

/** A badge of the catalogue with the user's standing. */
export interface BadgeProgress extends Badge {
  current: number;
  earned: boolean;
}

export type Metrics = Record<string, number>;

type Status = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface AchievementsState {
  /** Whose badges these are (null before any load). */
  userId: string | null;
  badges: Badge[];
  progress: BadgeProgress[];
  metrics: Metrics | null;
  /** Badges the last calculation earned. */
  newBadges: string[];
  status: Status;
  error: string | null;
  requestId: string | null;
}

export const initialAchievementsState: AchievementsState = {
  userId: null,
  badges: [],
  progress: [],
  metrics: null,
  newBadges: [],
  status: 'idle',
  error: null,
  requestId: null,
};

type Answer = { badges?: Badge[]; progress?: BadgeProgress[]; metrics?: Metrics; newBadges?: string[] };
type Config = { rejectValue: string };

/** The signed-in user's badges, recalculated now. */
export const calculateAchievements = createAsyncThunk<Answer, { userId: string }, Config>('achievements/calculate', async (_, { rejectWithValue }) => {
  try {
    return (await http.post<Answer>('/achievement/achievements/calculate', {}, ACHIEVEMENT_FALLBACK.calculate)) ?? {};
  } catch (e) {
    return rejectWithValue(errorMessage(e, ACHIEVEMENT_FALLBACK.calculate));
  }
});

/** Another user's badges as last calculated. */
export const fetchAchievements = createAsyncThunk<Answer, { userId: string }, Config>('achievements/fetch', async ({ userId }, { rejectWithValue }) => {
  try {
    return (await http.get<Answer>('/achievement/achievements', ACHIEVEMENT_FALLBACK.fetch, { userId })) ?? {};
  } catch (e) {
    return rejectWithValue(errorMessage(e, ACHIEVEMENT_FALLBACK.fetch));
  }
});

const achievementsSlice = createSlice({
  name: 'achievements',
  initialState: initialAchievementsState,
  reducers: {},
  extraReducers: (builder) => {
    builder.addCase(sessionUserChanged, () => initialAchievementsState);
    for (const thunk of [calculateAchievements, fetchAchievements]) {
      builder
        .addCase(thunk.pending, (state, action) => {
          if (state.userId !== action.meta.arg.userId) Object.assign(state, initialAchievementsState, { userId: action.meta.arg.userId });
          state.status = 'loading';
          state.error = null;
          state.requestId = action.meta.requestId;
        })
        .addCase(thunk.fulfilled, (state, action) => {
          if (state.requestId !== action.meta.requestId) return;
          state.requestId = null;
          state.status = 'succeeded';
          state.badges = action.payload.badges ?? [];
          state.progress = action.payload.progress ?? [];
          state.metrics = action.payload.metrics ?? state.metrics;
          state.newBadges = action.payload.newBadges ?? [];
        })
        .addCase(thunk.rejected, (state, action) => {
          if (state.requestId !== action.meta.requestId) return;
          state.requestId = null;
          state.status = 'failed';
          state.error = action.payload ?? ACHIEVEMENT_FALLBACK.fetch;
        });
    }
  },
});

export const achievementsReducer = achievementsSlice.reducer;
export const selectAchievements = (state: { achievements: AchievementsState }) => state.achievements;
