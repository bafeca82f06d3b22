/**
 * Actions the socket middleware dispatches for server events. Other features react to them in
 * their own reducers; the names read as events.
 */
import { createAction } from '@reduxjs/toolkit';
import type { BannerNotification, GuestVisit, PostCounts, UserLocation, UserNotification } from '@/types/entities';

export const socketEvents = {
  onlineUsersCountReceived: createAction<number>('socket/onlineUsersCountReceived'),
  notificationReceived: createAction<UserNotification>('socket/notificationReceived'),
  unreadCountUpdated: createAction<number>('socket/unreadCountUpdated'),
  userStatusChanged: createAction<{ userId: string; isOnline: boolean }>('socket/userStatusChanged'),
  userLocationUpdated: createAction<UserLocation>('socket/userLocationUpdated'),
  appealReceived: createAction<{ postId: string; postTitle: string }>('socket/appealReceived'),
  /** An administrator decided an appeal (administrators only): `accepted` or `rejected`. */
  appealDecided: createAction<{ appealId: string; status: string }>('socket/appealDecided'),
  broadcastReceived: createAction<BannerNotification>('socket/broadcastNotificationReceived'),
  broadcastDismissed: createAction<string>('socket/broadcastNotificationDismissed'),
  broadcastDeactivated: createAction<string>('socket/broadcastNotificationDeactivated'),
  broadcastDeletedAll: createAction('socket/broadcastNotificationsDeletedAll'),
  postCountsUpdated: createAction<Partial<PostCounts>>('socket/postCountsUpdated'),
  postBlockToggled: createAction<{ postId: string; blocked: boolean }>('socket/postBlockToggled'),
  /** A post of the signed-in author going out: notices and emails so far. */
  postDeliveryUpdated: createAction<PostDelivery>('socket/postDeliveryUpdated'),
  guestVisitUpdated: createAction<GuestVisit>('socket/guestVisitUpdated'),
  /** A reader tipped one of the signed-in writer's posts (`tipReceived`). */
  tipReceived: createAction<TipReceived>('socket/tipReceived'),
  feedbackPromptReceived: createAction<string>('socket/feedbackPromptReceived'),
  // Administrators only (adminRoom): contact messages and reports, each one object.
  contactMessageReceived: createAction<AdminEventPayload>('socket/newContactMessage'),
  contactMessageReplied: createAction<AdminEventPayload>('socket/contactMessageReplied'),
  reportReceived: createAction<AdminEventPayload>('socket/newReport'),
  reportReviewed: createAction<AdminEventPayload>('socket/reportReviewed'),
  reportAcknowledged: createAction<AdminEventPayload>('socket/reportAcknowledged'),
  /** A node's operating figures, every few seconds (the admin dashboard's Operations section). */
  operationsSnapshotReceived: createAction<AdminEventPayload>('socket/operationsSnapshot'),
  /** Where an administrator's background job (email retry, notice broadcast) stands. */
  adminJobProgressReceived: createAction<AdminEventPayload>('socket/adminJobProgress'),
  /**
   * Where one of the signed-in writer's imports stands (`importProgress`, to the writer's own
   * tabs): the import's object as `GET /api/import/{id}` gives it, without its sample. The import
   * feature reads its fields.
   */
  importProgressReceived: createAction<ImportEventPayload>('socket/importProgress'),
  /** The server closed this socket itself (a logout, a password change or a block elsewhere): the session is re-checked. */
  serverDisconnected: createAction('socket/serverDisconnected'),
};

/** The delivery figures of a post (`GET /api/post/delivery/{id}`, `postDeliveryUpdated`). */
export interface PostDelivery {
  postId: string;
  notices: number;
  emailsSent: number;
  emailsFailed: number;
  done: boolean;
  announced?: boolean;
  sendEmail?: boolean;
}

/** `tipReceived`: a tip to one of the writer's posts (minor units), sent to the writer's tabs. */
export interface TipReceived {
  tipId: string;
  postId: string;
  amount: number;
  currency: string;
  from: { id: string; name: string } | null;
  message: string | null;
}

/** The event's one object as a `TipReceived`, or null when it is not one. */
export function tipReceivedFrom(value: unknown): TipReceived | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const tipId = typeof v.tipId === 'string' ? v.tipId : '';
  const amount = Number(v.amount);
  if (!tipId || !Number.isFinite(amount)) return null;
  const from = v.from && typeof v.from === 'object' ? (v.from as Record<string, unknown>) : null;
  return {
    tipId,
    postId: typeof v.postId === 'string' ? v.postId : '',
    amount,
    currency: typeof v.currency === 'string' && v.currency ? v.currency : 'usd',
    from: from && typeof from.name === 'string' ? { id: typeof from.id === 'string' ? from.id : '', name: from.name } : null,
    message: typeof v.message === 'string' && v.message.trim() ? v.message : null,
  };
}

/** Where components hear `postDeliveryUpdated` without a reducer of their own. */
export const postDeliveryEvents = new EventTarget();

/** `importProgress`'s one object argument; the import feature reads its fields. */
export type ImportEventPayload = Record<string, unknown> & { id?: string };

/** An administrator event's one object argument; the admin feature reads its fields. */
export type AdminEventPayload = Record<string, unknown> & { _id?: string };

/** The administrator events and the actions they become. */
export const ADMIN_SOCKET_EVENTS = {
  newContactMessage: socketEvents.contactMessageReceived,
  contactMessageReplied: socketEvents.contactMessageReplied,
  newReport: socketEvents.reportReceived,
  reportReviewed: socketEvents.reportReviewed,
  reportAcknowledged: socketEvents.reportAcknowledged,
  operationsSnapshot: socketEvents.operationsSnapshotReceived,
  adminJobProgress: socketEvents.adminJobProgressReceived,
} as const;

export const DEFAULT_FEEDBACK_PROMPT = "We'd love your feedback!";

/** Online count is coerced to a number, default 0 (accepts a bare number or `{ count }`). */
export function coerceCount(value: unknown): number {
  const raw = value && typeof value === 'object' && 'count' in value ? value.count : value;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : 0;
}
