import type {
  GetNotificationNotificationsApiResponse,
  GetNotificationUnreadCountApiResponse,
  GetNotificationUserByUserIdApiResponse,
  PatchNotificationMarkAsReadByIdApiResponse,
  PostNotificationAdminApiResponse,
  PostNotificationReplyApiResponse,
} from '@/api/endpoints';
import { http } from '@/lib/http';

export const NOTIFICATIONS_PAGE_SIZE = 20;

export const NOTIFICATION_FALLBACK = {
  fetch: 'Failed to fetch notifications',
  unread: 'Failed to fetch unread count',
  markRead: 'Failed to mark as read',
  markAll: 'Failed to mark all as read',
  send: 'Failed to send notification',
  broadcast: 'Failed to broadcast notification',
  reply: 'Failed to reply to notification',
  delete: 'Failed to delete notification',
  history: 'Failed to fetch user history',
} as const;

/** The inbox's filters (`/message-box?type=admin|post`), applied by the server. */
export type InboxType = 'admin' | 'post';

export const notificationsApi = {
  list: (page: number, type?: InboxType | null) =>
    http.get<GetNotificationNotificationsApiResponse>('/notification/notifications', NOTIFICATION_FALLBACK.fetch, {
      page,
      limit: NOTIFICATIONS_PAGE_SIZE,
      type: type ?? undefined,
    }),
  unreadCount: () => http.get<GetNotificationUnreadCountApiResponse>('/notification/unread-count', NOTIFICATION_FALLBACK.unread),
  markRead: (id: string) =>
    http.patch<PatchNotificationMarkAsReadByIdApiResponse>(`/notification/mark-as-read/${encodeURIComponent(id)}`, {}, NOTIFICATION_FALLBACK.markRead),
  markAllRead: () => http.patch('/notification/mark-all-as-read', {}, NOTIFICATION_FALLBACK.markAll),
  sendAdmin: (body: { userId: string; content: string; navigateTo?: string }) =>
    http.post<PostNotificationAdminApiResponse>('/notification/admin', body, NOTIFICATION_FALLBACK.send),
  broadcast: (body: { content: string }) => http.post('/notification/broadcast', body, NOTIFICATION_FALLBACK.broadcast),
  reply: (body: { notificationId: string; content: string }) =>
    http.post<PostNotificationReplyApiResponse>('/notification/reply', body, NOTIFICATION_FALLBACK.reply),
  remove: (id: string) => http.delete(`/notification/${encodeURIComponent(id)}`, NOTIFICATION_FALLBACK.delete),
  history: (userId: string) =>
    http.get<GetNotificationUserByUserIdApiResponse>(`/notification/user/${encodeURIComponent(userId)}`, NOTIFICATION_FALLBACK.history),
};
