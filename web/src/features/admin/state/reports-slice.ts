/**
 * The reports section: reviewed (with the forward-to-author choice) and, separately,
 * acknowledged by the post's author; notices sent; live arrivals, reviews and acknowledgements.
 */
import type { PostAdminAcknowledgeReportByIdApiResponse } from '@/api/endpoints';
import { createSlice } from '@reduxjs/toolkit';
import { socketEvents } from '@/features/socket';
import { ADMIN_FALLBACK, adminApi } from '../admin-api';
import type { Report } from '../admin-types';
import { emptyList, failed, idOf, loaded, loading, pageFrom, prependLive, sectionThunk, str, type Page, type PagedList } from './paged-list';

export interface ReportsState {
  reports: PagedList<Report>;
}

export const initialReportsState = (): ReportsState => ({ reports: emptyList() });

/** A `newReport` payload as a list item (null when it has no id). */
export function reportFromEvent(payload: Record<string, unknown>): Report | null {
  const id = idOf(payload, '_id', 'id', 'reportId');
  if (!id) return null;
  const post = payload.post as Report['post'];
  return {
    ...(payload as unknown as Report),
    _id: id,
    postId: idOf(payload, 'postId') || post?._id || '',
    postTitle: str(payload.postTitle) || post?.title || '',
    reason: str(payload.reason),
    isReviewed: Boolean(payload.isReviewed),
    forwardedToAuthor: Boolean(payload.forwardedToAuthor),
    isAcknowledged: Boolean(payload.isAcknowledged),
    editedSince: Boolean(payload.editedSince),
    postDeleted: Boolean(payload.postDeleted),
    revisionId: str(payload.revisionId) || null,
    createdAt: str(payload.createdAt) || new Date().toISOString(),
  };
}

/** The report a live event names. */
export function findReport(list: PagedList<Report>, payload: Record<string, unknown>) {
  const id = idOf(payload, 'reportId', '_id', 'id');
  return list.items.find((r) => r._id === id);
}

const thunk = sectionThunk<ReportsState>();

export const fetchReports = thunk<Page<Report>, number | void>('fetchReports', ADMIN_FALLBACK.fetchReports, async (page, { getState }) => {
  const p = page ?? getState().admin.reports.page;
  const r = await adminApi.reports({ page: p });
  return pageFrom(r?.reports, r?.total, r, p);
});

export const reviewReport = thunk<{ id: string; forwardToAuthor: boolean; message: string; report: Report | null }, { id: string; forwardToAuthor: boolean }>(
  'reviewReport',
  ADMIN_FALLBACK.reviewReport,
  async ({ id, forwardToAuthor }) => {
    const r = await adminApi.reviewReport(id, forwardToAuthor);
    return { id, forwardToAuthor, message: r?.message ?? 'Report reviewed', report: r?.report ?? null };
  },
);

export const sendReportNotification = thunk<{ reportId: string; message: string; emailSent: boolean }, { reportId: string; subject: string; message: string }>(
  'sendReportNotification',
  ADMIN_FALLBACK.sendNotification,
  async (body) => {
    const r = await adminApi.sendReportNotice(body);
    return { reportId: body.reportId, message: r?.message ?? 'Notification sent', emailSent: r?.emailSent !== false };
  },
);

/** The reported post's author acknowledges a report (`/acknowledge/{reportId}`). */
export const acknowledgeReport = thunk<{ id: string; message: string; report: PostAdminAcknowledgeReportByIdApiResponse['report'] | null }, string>('acknowledgeReport', ADMIN_FALLBACK.acknowledgeReport, async (id) => {
  const r = await adminApi.acknowledgeReport(id);
  return { id, message: r?.message ?? 'Report acknowledged', report: r?.report ?? null };
});

export const reportsSlice = createSlice({
  name: 'admin',
  initialState: initialReportsState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(fetchReports.pending, (state) => loading(state.reports))
      .addCase(fetchReports.fulfilled, (state, action) => loaded(state.reports, action.payload))
      .addCase(fetchReports.rejected, (state, action) => failed(state.reports, action.payload, ADMIN_FALLBACK.fetchReports))
      .addCase(reviewReport.fulfilled, (state, action) => {
        const r = state.reports.items.find((i) => i._id === action.payload.id);
        if (r) {
          r.isReviewed = true;
          r.forwardedToAuthor = action.payload.report?.forwardedToAuthor ?? (r.forwardedToAuthor || action.payload.forwardToAuthor);
        }
      })
      .addCase(sendReportNotification.fulfilled, (state, action) => {
        const r = state.reports.items.find((i) => i._id === action.payload.reportId);
        if (r) r.noticesSent = (r.noticesSent ?? 0) + 1;
      })
      .addCase(acknowledgeReport.fulfilled, (state, action) => {
        const r = state.reports.items.find((i) => i._id === action.payload.id);
        if (r) {
          r.isAcknowledged = true;
          r.acknowledgedAt = action.payload.report?.acknowledgedAt ?? r.acknowledgedAt ?? null;
        }
      })
      .addCase(socketEvents.reportReceived, (state, action) => {
        const report = reportFromEvent(action.payload);
        if (report) prependLive(state.reports, report);
      })
      .addCase(socketEvents.reportReviewed, (state, action) => {
        const r = findReport(state.reports, action.payload);
        if (!r) return;
        r.isReviewed = true;
        if (typeof action.payload.forwardedToAuthor === 'boolean') r.forwardedToAuthor = action.payload.forwardedToAuthor;
      })
      .addCase(socketEvents.reportAcknowledged, (state, action) => {
        const r = findReport(state.reports, action.payload);
        if (!r) return;
        r.isAcknowledged = true;
        r.acknowledgedAt = str(action.payload.acknowledgedAt) || r.acknowledgedAt || null;
      });
  },
});
