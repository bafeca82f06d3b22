/**
 * The appeals section: authors' appeals against the block of their posts, filtered by status
 * (pending, decided, all), decided with an optional reply. Live arrivals and decisions mark the
 * list out of date; the section then fetches its current page again.
 */
import { createSlice } from '@reduxjs/toolkit';
import { socketEvents } from '@/features/socket';
import { ADMIN_FALLBACK, adminApi } from '../admin-api';
import type { AdminAppeal, AppealDecision, AppealFilter } from '../admin-types';
import { emptyList, failed, loaded, loading, pageFrom, removeFrom, sectionThunk, type Page, type PagedList } from './paged-list';

export const APPEAL_FILTERS: readonly AppealFilter[] = ['pending', 'decided', 'all'];

/** The longest reply an administrator may send with a decision. */
export const APPEAL_REPLY_MAX = 2000;

export interface AppealsList extends PagedList<AdminAppeal> {
  filter: AppealFilter;
  /** The request whose answer the list waits for (earlier answers are dropped). */
  requestId: string | null;
  /** Raised by each live arrival or decision: the section refetches its page when it changes. */
  changes: number;
}

export interface AppealsState {
  appeals: AppealsList;
}

export const initialAppealsState = (): AppealsState => ({ appeals: { ...emptyList<AdminAppeal>(), filter: 'pending', requestId: null, changes: 0 } });

/** Whether an appeal belongs in a list of the given filter. */
export function appealMatches(appeal: AdminAppeal, filter: AppealFilter) {
  if (filter === 'all') return true;
  return filter === 'pending' ? appeal.status === 'pending' : appeal.status !== 'pending';
}

const thunk = sectionThunk<AppealsState>();

/** A page of appeals; without arguments the current page of the current filter. */
export const fetchAppeals = thunk<Page<AdminAppeal> & { filter: AppealFilter }, { page?: number; filter?: AppealFilter } | void>(
  'fetchAppeals',
  ADMIN_FALLBACK.fetchAppeals,
  async (arg, { getState }) => {
    const list = getState().admin.appeals;
    const filter = arg?.filter ?? list.filter;
    const page = arg?.page ?? (filter === list.filter ? list.page : 1);
    const r = await adminApi.appeals({ status: filter, page });
    return { ...pageFrom(r?.appeals, r?.total, r, page), filter };
  },
);

export const decideAppeal = thunk<{ id: string; message: string; appeal: AdminAppeal | null }, { id: string; decision: AppealDecision; reply: string }>(
  'decideAppeal',
  ADMIN_FALLBACK.decideAppeal,
  async ({ id, decision, reply }) => {
    const text = reply.trim();
    const r = await adminApi.decideAppeal(id, text ? { decision, reply: text } : { decision });
    return { id, message: r?.message ?? ADMIN_FALLBACK.decideAppeal, appeal: r?.appeal ?? null };
  },
);

export const appealsSlice = createSlice({
  name: 'admin',
  initialState: initialAppealsState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(fetchAppeals.pending, (state, action) => {
        const list = state.appeals;
        const filter = action.meta.arg?.filter ?? list.filter;
        if (filter !== list.filter) {
          // Another filter's rows are not this one's: the list empties until its answer.
          list.items = [];
          list.total = 0;
          list.totalPages = 0;
          list.page = 1;
          list.filter = filter;
        }
        list.requestId = action.meta.requestId;
        loading(list);
      })
      .addCase(fetchAppeals.fulfilled, (state, action) => {
        if (state.appeals.requestId !== action.meta.requestId) return;
        state.appeals.requestId = null;
        loaded(state.appeals, action.payload);
      })
      .addCase(fetchAppeals.rejected, (state, action) => {
        if (state.appeals.requestId !== action.meta.requestId) return;
        state.appeals.requestId = null;
        failed(state.appeals, action.payload, ADMIN_FALLBACK.fetchAppeals);
      })
      .addCase(decideAppeal.fulfilled, (state, action) => {
        const list = state.appeals;
        const { id, appeal } = action.payload;
        const at = list.items.findIndex((a) => a._id === id);
        if (at < 0 || !appeal) return;
        if (appealMatches(appeal, list.filter)) list.items[at] = appeal;
        else removeFrom(list, id);
      })
      .addCase(socketEvents.appealReceived, (state) => {
        state.appeals.changes += 1;
      })
      .addCase(socketEvents.appealDecided, (state) => {
        state.appeals.changes += 1;
      });
  },
});
