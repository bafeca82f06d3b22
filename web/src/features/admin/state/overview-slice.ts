/** The dashboard's overview figures and the site analytics of a date range. */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { socketEvents } from '@/features/socket';
import { ADMIN_FALLBACK, adminApi } from '../admin-api';
import type { Overview, SiteAnalytics, Status } from '../admin-types';
import { failed, loading, sectionThunk } from './paged-list';

export interface OverviewState {
  overview: { data: Overview | null; status: Status; error: string | null };
  analytics: { data: SiteAnalytics | null; status: Status; error: string | null; range: { startDate: string; endDate: string } };
}

export const initialOverviewState = (): OverviewState => ({
  overview: { data: null, status: 'idle', error: null },
  analytics: { data: null, status: 'idle', error: null, range: { startDate: '', endDate: '' } },
});

const thunk = sectionThunk<OverviewState>();

export const fetchOverview = thunk<Overview, void>('fetchOverview', ADMIN_FALLBACK.overview, () => adminApi.overview());

export const fetchSiteAnalytics = thunk<SiteAnalytics, { startDate: string; endDate: string }>(
  'fetchSiteAnalytics',
  ADMIN_FALLBACK.analytics,
  async (range) => {
    const r = await adminApi.analytics({ startDate: range.startDate || undefined, endDate: range.endDate || undefined });
    if (!r?.data) throw new Error(ADMIN_FALLBACK.analytics);
    return r.data;
  },
);

export const overviewSlice = createSlice({
  name: 'admin',
  initialState: initialOverviewState,
  reducers: {
    analyticsRangeChanged(state, action: PayloadAction<{ startDate: string; endDate: string }>) {
      state.analytics.range = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchOverview.pending, (state) => loading(state.overview))
      .addCase(fetchOverview.fulfilled, (state, action) => {
        state.overview = { data: action.payload, status: 'succeeded', error: null };
      })
      .addCase(fetchOverview.rejected, (state, action) => failed(state.overview, action.payload, ADMIN_FALLBACK.overview))
      .addCase(socketEvents.onlineUsersCountReceived, (state, action) => {
        if (state.overview.data) state.overview.data.online.count = action.payload;
      })
      .addCase(socketEvents.appealReceived, (state) => {
        if (state.overview.data) state.overview.data.pendingAppeals += 1;
      })
      .addCase(socketEvents.appealDecided, (state) => {
        if (state.overview.data) state.overview.data.pendingAppeals = Math.max(0, state.overview.data.pendingAppeals - 1);
      })
      .addCase(fetchSiteAnalytics.pending, (state, action) => {
        loading(state.analytics);
        state.analytics.range = action.meta.arg;
      })
      .addCase(fetchSiteAnalytics.fulfilled, (state, action) => {
        state.analytics.data = action.payload;
        state.analytics.status = 'succeeded';
      })
      .addCase(fetchSiteAnalytics.rejected, (state, action) => failed(state.analytics, action.payload, ADMIN_FALLBACK.analytics));
  },
});

export const { analyticsRangeChanged } = overviewSlice.actions;
