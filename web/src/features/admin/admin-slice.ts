/**
 * The administrator state (seed 001 §3 "Admin state lists", §4 "Administration"), one slice per
 * dashboard section under `state/`, each owning its part of `state.admin` (whose shape is the
 * spec's: every list with its page, total pages and total) and sharing the paged-list helper
 * (`state/paged-list.ts`). This file puts them together and holds what spans sections:
 *
 * - the overview's counters, which follow the contact and report lists (a message handled, a
 *   report reviewed, a live arrival that was not already listed);
 * - the last action's outcome (`message`, `error`) shown as a status line;
 * - a change of user (or a session that is not an administrator's) empties everything.
 */
import { createAction, createReducer, isAnyOf, type UnknownAction } from '@reduxjs/toolkit';
import { injectReducers } from '@/app/store';
import { sessionUserChanged } from '@/lib/session';
import { initUserSocket, socketEvents } from '@/features/socket';
import { ADMIN_FALLBACK } from './admin-api';
import { appealsSlice, decideAppeal, initialAppealsState, type AppealsState } from './state/appeals-slice';
import { auditSlice, initialAuditState, type AuditState } from './state/audit-slice';
import { bannersSlice, createBannerNotification, deactivateBannerNotification, deleteAllBannerNotifications, dismissBannerNotification, initialBannersState, type BannersState } from './state/banners-slice';
import { contactFromEvent, contactSlice, initialContactState, repliedMessageId, replyToContact, toggleMessageHandled, type ContactState } from './state/contact-slice';
import { eligibilitySlice, initialEligibilityState, type EligibilityState } from './state/eligibility-slice';
import { emailSlice, initialEmailState, type EmailState } from './state/email-slice';
import { feedbackSlice, initialFeedbackState, sendFeedbackPrompt, type FeedbackState } from './state/feedback-slice';
import { initialMoneyState, moneySlice, togglePlanStatus, type MoneyState } from './state/money-slice';
import { initialOverviewState, overviewSlice, type OverviewState } from './state/overview-slice';
import { deletePost, initialPostsState, postsSlice, toggleBlockPost, type PostsState } from './state/posts-slice';
import { findReport, initialReportsState, reportFromEvent, reportsSlice, reviewReport, sendReportNotification, type ReportsState } from './state/reports-slice';
import { deleteUser, initialUsersState, toggleBlockUser, toggleUserRole, usersSlice, type UsersState } from './state/users-slice';

export * from './state/paged-list';
export * from './state/overview-slice';
export * from './state/users-slice';
export * from './state/eligibility-slice';
export * from './state/posts-slice';
export * from './state/contact-slice';
export * from './state/reports-slice';
export * from './state/appeals-slice';
export * from './state/money-slice';
export * from './state/email-slice';
export * from './state/banners-slice';
export * from './state/audit-slice';
export * from './state/feedback-slice';

export type AdminState = OverviewState &
  UsersState &
  PostsState &
  ContactState &
  ReportsState &
  AppealsState &
  MoneyState &
  EmailState &
  BannersState &
  EligibilityState &
  AuditState &
  FeedbackState & {
    /** The last action's outcome (shown as a status line). */
    message: string | null;
    error: string | null;
  };

export const initialAdminState = (): AdminState => ({
  ...initialOverviewState(),
  ...initialUsersState(),
  ...initialPostsState(),
  ...initialContactState(),
  ...initialReportsState(),
  ...initialAppealsState(),
  ...initialMoneyState(),
  ...initialEmailState(),
  ...initialBannersState(),
  ...initialEligibilityState(),
  ...initialAuditState(),
  ...initialFeedbackState(),
  message: null,
  error: null,
});

export const adminMessageCleared = createAction('admin/adminMessageCleared');

/** What spans sections; it sees the whole state before the sections change their parts. */
const acrossSections = createReducer(initialAdminState, (builder) => {
  builder
    .addCase(adminMessageCleared, (state) => {
      state.message = null;
      state.error = null;
    })
    // The overview's counters follow the contact messages and reports.
    .addCase(toggleMessageHandled.fulfilled, (state, action) => {
      const m = state.contactMessages.items.find((i) => i._id === action.payload.id);
      if (m && m.isHandled !== action.payload.isHandled && state.overview.data) {
        state.overview.data.unreadContactMessages = Math.max(0, state.overview.data.unreadContactMessages + (action.payload.isHandled ? -1 : 1));
      }
    })
    .addCase(socketEvents.contactMessageReceived, (state, action) => {
      const message = contactFromEvent(action.payload);
      if (!message || !state.overview.data || state.contactMessages.items.some((i) => i._id === message._id)) return;
      state.overview.data.unreadContactMessages += message.isHandled ? 0 : 1;
      state.overview.data.today.contactMessages += 1;
    })
    .addCase(socketEvents.contactMessageReplied, (state, action) => {
      const m = state.contactMessages.items.find((i) => i._id === repliedMessageId(action.payload));
      if (m && !m.isHandled && state.overview.data) state.overview.data.unreadContactMessages = Math.max(0, state.overview.data.unreadContactMessages - 1);
    })
    .addCase(reviewReport.fulfilled, (state, action) => {
      const r = state.reports.items.find((i) => i._id === action.payload.id);
      if (r && !r.isReviewed && state.overview.data) state.overview.data.openReports = Math.max(0, state.overview.data.openReports - 1);
    })
    .addCase(socketEvents.reportReceived, (state, action) => {
      const report = reportFromEvent(action.payload);
      if (!report || !state.overview.data || state.reports.items.some((i) => i._id === report._id)) return;
      state.overview.data.openReports += report.isReviewed ? 0 : 1;
      state.overview.data.today.reports += 1;
    })
    .addCase(socketEvents.reportReviewed, (state, action) => {
      const r = findReport(state.reports, action.payload);
      if (r && !r.isReviewed && state.overview.data) state.overview.data.openReports = Math.max(0, state.overview.data.openReports - 1);
    });
  // The outcome of an action, as the server put it.
  builder
    .addCase(deactivateBannerNotification.fulfilled, (state) => {
      state.message = 'Banner deactivated';
      state.error = null;
    })
    .addCase(deleteAllBannerNotifications.fulfilled, (state, action) => {
      state.message = action.payload;
      state.error = null;
    })
    .addCase(togglePlanStatus.fulfilled, (state, action) => {
      state.message = action.payload.message || `Plan is now ${action.payload.status}`;
      state.error = null;
    })
    .addCase(sendFeedbackPrompt.fulfilled, (state, action) => {
      state.message = action.payload;
      state.error = null;
    })
    .addMatcher(
      isAnyOf(
        toggleBlockUser.fulfilled,
        toggleUserRole.fulfilled,
        deleteUser.fulfilled,
        toggleBlockPost.fulfilled,
        deletePost.fulfilled,
        toggleMessageHandled.fulfilled,
        replyToContact.fulfilled,
        reviewReport.fulfilled,
        sendReportNotification.fulfilled,
        decideAppeal.fulfilled,
        createBannerNotification.fulfilled,
      ),
      (state, action) => {
        state.message = action.payload.message;
        state.error = null;
      },
    );
  // Every failed action says why, with the server's message or the spec's fallback.
  for (const [action, fallback] of [
    [toggleBlockUser, ADMIN_FALLBACK.toggleBlockUser],
    [toggleUserRole, ADMIN_FALLBACK.toggleUserRole],
    [deleteUser, ADMIN_FALLBACK.deleteUser],
    [toggleBlockPost, ADMIN_FALLBACK.toggleBlockPost],
    [deletePost, ADMIN_FALLBACK.deletePost],
    [toggleMessageHandled, ADMIN_FALLBACK.toggleMessage],
    [replyToContact, ADMIN_FALLBACK.replyContact],
    [reviewReport, ADMIN_FALLBACK.reviewReport],
    [sendReportNotification, ADMIN_FALLBACK.sendNotification],
    [createBannerNotification, ADMIN_FALLBACK.createBanner],
    [dismissBannerNotification, ADMIN_FALLBACK.dismissBanner],
    [deactivateBannerNotification, ADMIN_FALLBACK.deactivateBanner],
    [deleteAllBannerNotifications, ADMIN_FALLBACK.deleteAllBanners],
    [togglePlanStatus, ADMIN_FALLBACK.togglePlanStatus],
    [sendFeedbackPrompt, ADMIN_FALLBACK.feedbackPrompt],
  ] as const) {
    builder.addMatcher(action.rejected.match, (state, a) => {
      state.error = a.payload ?? fallback;
      state.message = null;
    });
  }
});

/** Each section's reducer over its own keys of `state.admin`. */
const SECTIONS = [overviewSlice, usersSlice, postsSlice, contactSlice, reportsSlice, appealsSlice, moneySlice, emailSlice, bannersSlice, eligibilitySlice, auditSlice, feedbackSlice].map(
  (slice) => ({ reduce: slice.reducer as unknown as (part: Record<string, unknown>, action: UnknownAction) => Record<string, unknown>, keys: Object.keys(slice.getInitialState()) }),
);

export function adminReducer(state: AdminState | undefined, action: UnknownAction): AdminState {
  if (state === undefined || sessionUserChanged.match(action)) return initialAdminState();
  // Admins' data loads when their session joins adminRoom (seed 001 §6).
  if (initUserSocket.fulfilled.match(action) && action.payload.role !== 'admin') return initialAdminState();
  const before = acrossSections(state, action);
  let next = before;
  for (const { reduce, keys } of SECTIONS) {
    const part: Record<string, unknown> = {};
    for (const key of keys) part[key] = before[key as keyof AdminState];
    const out = reduce(part, action);
    if (out === part || keys.every((key) => out[key] === part[key])) continue;
    if (next === before) next = { ...before };
    Object.assign(next, out);
  }
  return next;
}
// Loaded on demand: the slice joins the store when this module loads.
injectReducers({ admin: adminReducer });

type WithAdmin = { admin: AdminState };
export const selectAdmin = (state: WithAdmin) => state.admin;
export const selectOverview = (state: WithAdmin) => state.admin.overview;
