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
  broadcastReceived: createAction<BannerNotification>('socket/broadcastNotificationReceived'),
  broadcastDismissed: createAction<string>('socket/broadcastNotificationDismissed'),
  broadcastDeactivated: createAction<string>('socket/broadcastNotificationDeactivated'),
  broadcastDeletedAll: createAction('socket/broadcastNotificationsDeletedAll'),
  postCountsUpdated: createAction<Partial<PostCounts>>('socket/postCountsUpdated'),
  postBlockToggled: createAction<{ postId: string; blocked: boolean }>('socket/postBlockToggled'),
  guestVisitUpdated: createAction<GuestVisit>('socket/guestVisitUpdated'),
  feedbackPromptReceived: createAction<string>('socket/feedbackPromptReceived'),
};

export const DEFAULT_FEEDBACK_PROMPT = "We'd love your feedback!";

/** Online count is coerced to a number, default 0 (accepts a bare number or `{ count }`). */
export function coerceCount(value: unknown): number {
  const raw = value && typeof value === 'object' && 'count' in value ? (value as { count: unknown }).count : value;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : 0;
}
