/** The audit section: administrator actions, filtered by action and actor. */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { ADMIN_FALLBACK, adminApi } from '../admin-api';
import type { AuditEntry } from '../admin-types';
import { emptyList, failed, loaded, loading, pageFrom, sectionThunk, type Page, type PagedList } from './paged-list';

export interface AuditState {
  auditLog: PagedList<AuditEntry> & { filter: { action: string; actorId: string } };
}

export const initialAuditState = (): AuditState => ({ auditLog: { ...emptyList<AuditEntry>(), filter: { action: '', actorId: '' } } });

const thunk = sectionThunk<AuditState>();

export const fetchAuditLog = thunk<Page<AuditEntry>, { page?: number; action?: string; actorId?: string }>('fetchAuditLog', ADMIN_FALLBACK.auditLog, async (arg, { getState }) => {
  const s = getState().admin.auditLog;
  const q = { page: arg.page ?? s.page, action: arg.action ?? s.filter.action, actorId: arg.actorId ?? s.filter.actorId };
  const r = await adminApi.auditLog({ page: q.page, action: q.action || undefined, actorId: q.actorId || undefined });
  return pageFrom(r?.logs, r?.total, r, q.page);
});

export const auditSlice = createSlice({
  name: 'admin',
  initialState: initialAuditState,
  reducers: {
    auditFilterChanged(state, action: PayloadAction<Partial<AuditState['auditLog']['filter']>>) {
      state.auditLog.filter = { ...state.auditLog.filter, ...action.payload };
      state.auditLog.page = 1;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchAuditLog.pending, (state) => loading(state.auditLog))
      .addCase(fetchAuditLog.fulfilled, (state, action) => loaded(state.auditLog, action.payload))
      .addCase(fetchAuditLog.rejected, (state, action) => failed(state.auditLog, action.payload, ADMIN_FALLBACK.auditLog));
  },
});

export const { auditFilterChanged } = auditSlice.actions;
