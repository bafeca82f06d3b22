/**
 * The email section: delivery statuses (all, or one address) with a type filter, retries of
 * failed emails as background jobs (progress by `adminJobProgress`), and the daily new-post
 * mail report.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { socketEvents } from '@/features/socket';
import { textOf } from '@/lib/format';
import { ADMIN_FALLBACK, adminApi, type AdminJob, type JobAnswer } from '../admin-api';
import type { EmailReport, EmailStatus, RetryResult } from '../admin-types';
import { emptyList, failed, idleAction, loaded, loading, pageFrom, sectionThunk, type ActionResult, type Page, type PagedList } from './paged-list';

export interface EmailState {
  emailStatuses: PagedList<EmailStatus> & { type: string; email: string; retry: ActionResult<RetryResult> & { jobId?: string | null } };
  /** Background jobs (email retries, notice broadcasts) by id, as `adminJobProgress` reports them. */
  jobs: Record<string, AdminJob>;
  emailReports: PagedList<EmailReport> & { date: string };
}

export const initialEmailState = (): EmailState => ({
  emailStatuses: { ...emptyList<EmailStatus>(), type: '', email: '', retry: idleAction() },
  jobs: {},
  emailReports: { ...emptyList<EmailReport>(), date: '' },
});

const thunk = sectionThunk<EmailState>();

export const fetchEmailStatuses = thunk<Page<EmailStatus>, { page?: number; type?: string; email?: string }>('fetchEmailStatuses', ADMIN_FALLBACK.emailStatuses, async (arg, { getState }) => {
  const s = getState().admin.emailStatuses;
  const q = { page: arg.page ?? s.page, type: arg.type ?? s.type, email: arg.email ?? s.email };
  const r = q.email
    ? await adminApi.emailStatus({ email: q.email, type: q.type || undefined, page: q.page })
    : await adminApi.emailStatuses({ type: q.type || undefined, page: q.page });
  return pageFrom(r?.logs, r?.total, r, q.page);
});

/** Queues a retry (the server answers 202 at once); its progress arrives as `adminJobProgress`. */
export const retryFailedEmails = thunk<{ message: string; results: RetryResult[]; jobId: string | null }, string>('retryFailedEmails', ADMIN_FALLBACK.retryEmails, async (type) => {
  const r = await adminApi.retryFailedEmails(type);
  return { message: r?.message ?? 'Retry started', results: r?.results ?? [], jobId: r?.jobId ?? null };
});

/** Reads a finished retry job: its outcome and per-message results. */
export const fetchRetryJob = thunk<{ message: string; results: RetryResult[]; job: AdminJob }, string>('fetchRetryJob', ADMIN_FALLBACK.job, async (id) => {
  const r = await adminApi.job(id);
  const job: JobAnswer | undefined = r?.job;
  return {
    message: job?.message ?? 'Retry finished',
    results: job?.results ?? [],
    job: { jobId: id, kind: job?.kind ?? '', status: job?.status ?? 'done', done: Number(job?.done ?? 0), total: job?.total ?? null, message: job?.message ?? null },
  };
});

export const fetchEmailReports = thunk<Page<EmailReport>, { page?: number; date?: string }>('fetchEmailReports', ADMIN_FALLBACK.dailyReport, async (arg, { getState }) => {
  const s = getState().admin.emailReports;
  const q = { page: arg.page ?? s.page, date: arg.date ?? s.date };
  const r = await adminApi.dailyReport({ page: q.page, date: q.date || undefined });
  return pageFrom(r?.logs, r?.total, r, q.page);
});

function applyResults(state: EmailState, results: RetryResult[]) {
  for (const result of results) {
    const row = state.emailStatuses.items.find((i) => i._id === result._id);
    if (row) Object.assign(row, result);
  }
}

export const emailSlice = createSlice({
  name: 'admin',
  initialState: initialEmailState,
  reducers: {
    emailFilterChanged(state, action: PayloadAction<{ type?: string; email?: string }>) {
      if (action.payload.type !== undefined) state.emailStatuses.type = action.payload.type;
      if (action.payload.email !== undefined) state.emailStatuses.email = action.payload.email;
      state.emailStatuses.page = 1;
    },
    emailReportDateChanged(state, action: PayloadAction<string>) {
      state.emailReports.date = action.payload;
      state.emailReports.page = 1;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchEmailStatuses.pending, (state) => loading(state.emailStatuses))
      .addCase(fetchEmailStatuses.fulfilled, (state, action) => loaded(state.emailStatuses, action.payload))
      .addCase(fetchEmailStatuses.rejected, (state, action) =>
        failed(state.emailStatuses, action.payload, action.meta.arg.email || state.emailStatuses.email ? ADMIN_FALLBACK.emailStatus : ADMIN_FALLBACK.emailStatuses),
      )
      .addCase(retryFailedEmails.pending, (state) => {
        state.emailStatuses.retry = { status: 'loading', message: null, error: null, results: [] };
      })
      .addCase(retryFailedEmails.fulfilled, (state, action) => {
        state.emailStatuses.retry = { status: 'succeeded', message: action.payload.message, error: null, results: action.payload.results, jobId: action.payload.jobId };
        applyResults(state, action.payload.results);
      })
      .addCase(retryFailedEmails.rejected, (state, action) => {
        state.emailStatuses.retry = { status: 'failed', message: null, error: action.payload ?? ADMIN_FALLBACK.retryEmails, results: [] };
      })
      .addCase(fetchRetryJob.fulfilled, (state, action) => {
        state.jobs[action.meta.arg] = action.payload.job;
        if (state.emailStatuses.retry.jobId !== action.meta.arg) return;
        state.emailStatuses.retry = { status: 'succeeded', message: action.payload.message, error: null, results: action.payload.results, jobId: action.meta.arg };
        applyResults(state, action.payload.results);
      })
      .addCase(socketEvents.adminJobProgressReceived, (state, action) => {
        const p = action.payload;
        const id = typeof p.jobId === 'string' ? p.jobId : typeof p._id === 'string' ? p._id : null;
        if (!id) return;
        state.jobs[id] = {
          jobId: id,
          kind: textOf(p.kind),
          status: textOf(p.status ?? 'running'),
          done: Number(p.done ?? 0) || 0,
          total: p.total == null ? null : Number(p.total),
          message: typeof p.message === 'string' ? p.message : null,
        };
      })
      .addCase(fetchEmailReports.pending, (state) => loading(state.emailReports))
      .addCase(fetchEmailReports.fulfilled, (state, action) => loaded(state.emailReports, action.payload))
      .addCase(fetchEmailReports.rejected, (state, action) => failed(state.emailReports, action.payload, ADMIN_FALLBACK.dailyReport));
  },
});

export const { emailFilterChanged, emailReportDateChanged } = emailSlice.actions;
