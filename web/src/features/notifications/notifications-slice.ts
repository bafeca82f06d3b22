/**
 * The user's notifications (seed 000 §3 "User notification", §4 "Notifications", §5). The
 * dropdown's `list` is kept by an entity adapter (ids in the spec's order, one entry per `_id`):
 * an arrival goes to the front, the list is cut to the first 50 when it exceeds 100.
 */
import { createAsyncThunk, createEntityAdapter, createSlice, isPending, type EntityState, type UnknownAction } from '@reduxjs/toolkit';
import { errorMessage } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
import type { UserNotification } from '@/types/entities';
import { socketEvents } from '@/features/socket';
import { NOTIFICATION_FALLBACK, notificationsApi, type InboxType } from './notifications-api';
import { isAdminType } from './notification-text';

export const LIST_TRIM_ABOVE = 100;
export const LIST_TRIM_TO = 50;
export const INVALID_NOTIFICATION_ID = 'Invalid notification ID';
export const USER_NOT_AUTHENTICATED = 'User not authenticated';

/** The message box's list: one kind filter, filtered and paged by the server. */
export interface InboxState {
  type: InboxType | null;
  list: UserNotification[];
  page: number;
  total: number;
  status: 'idle' | 'loading' | 'succeeded' | 'failed';
  error: string | null;
  requestId: string | null;
  /** Answers sent from this inbox, by the id of the notice they answer (shown under it). */
  replies: Record<string, UserNotification[]>;
}

export interface NotificationsState {
  /** The dropdown's list (every kind), newest first. */
  list: EntityState<UserNotification, string>;
  unreadCount: number;
  page: number;
  total: number;
  userNotificationHistory: UserNotification[];
  loading: boolean;
  error: string | null;
  inbox: InboxState;
}

const listAdapter = createEntityAdapter<UserNotification, string>({ selectId: (n) => n._id });

/** A dropdown list holding `items` in their order (for a store's preloaded state). */
export const notificationList = (items: UserNotification[] = []) => listAdapter.setAll(listAdapter.getInitialState(), items);

export const initialNotificationsState: NotificationsState = {
  list: notificationList(),
  unreadCount: 0,
  page: 1,
  total: 0,
  userNotificationHistory: [],
  loading: false,
  error: null,
  inbox: { type: null, list: [], page: 1, total: 0, status: 'idle', error: null, requestId: null, replies: {} },
};

/** Whether a notification belongs in the inbox under a kind filter. */
export function matchesInboxType(n: UserNotification, type: InboxType | null): boolean {
  if (type === 'admin') return isAdminType(n.type);
  if (type === 'post') return !isAdminType(n.type);
  return true;
}

type ThunkConfig = { rejectValue: string; state: { auth: { isAuthenticated: boolean; user: { _id: string } | null } } };

function validId(id: unknown): id is string {
  return typeof id === 'string' && id.trim() !== '' && id !== 'undefined';
}

export const fetchNotifications = createAsyncThunk<
  { notifications: UserNotification[]; total: number; page: number },
  { page?: number } | void,
  ThunkConfig
>('notifications/fetch', async (arg, { getState, rejectWithValue }) => {
  if (!getState().auth.isAuthenticated) return rejectWithValue(USER_NOT_AUTHENTICATED);
  const page = (arg && arg.page) || 1;
  try {
    const r = await notificationsApi.list(page);
    return { notifications: r?.notifications ?? [], total: r?.total ?? 0, page };
  } catch (e) {
    return rejectWithValue(errorMessage(e, NOTIFICATION_FALLBACK.fetch));
  }
});

/** A page of the message box under a kind filter; page 1 replaces, later pages append. */
export const fetchInbox = createAsyncThunk<
  { notifications: UserNotification[]; total: number; page: number; unreadCount: number | null },
  { page?: number; type?: InboxType | null },
  ThunkConfig
>('notifications/fetchInbox', async ({ page = 1, type = null }, { getState, rejectWithValue }) => {
  if (!getState().auth.isAuthenticated) return rejectWithValue(USER_NOT_AUTHENTICATED);
  try {
    const r = await notificationsApi.list(page, type);
    // The server's unreadCount is over every kind, whatever the filter: the badge follows it.
    const unreadCount = typeof r?.unreadCount === 'number' ? r.unreadCount : null;
    return { notifications: r?.notifications ?? [], total: r?.total ?? 0, page, unreadCount };
  } catch (e) {
    return rejectWithValue(errorMessage(e, NOTIFICATION_FALLBACK.fetch));
  }
});

export const fetchUnreadCount = createAsyncThunk<number, void, ThunkConfig>(
  'notifications/fetchUnreadCount',
  async (_, { rejectWithValue }) => {
    try {
      const r = await notificationsApi.unreadCount();
      return Number(r?.count) || 0;
    } catch (e) {
      return rejectWithValue(errorMessage(e, NOTIFICATION_FALLBACK.unread));
    }
  },
);

/** The server's unread count, or null when it cannot be read now. */
async function serverUnreadCount(): Promise<number | null> {
  try {
    const r = await notificationsApi.unreadCount();
    return Number(r?.count) || 0;
  } catch {
    return null;
  }
}

/**
 * Marks one notification read, then reads the server's unread count: the server also pushes the
 * new count live, and a local "minus one" landing after that push would count the same read twice.
 */
export const markNotificationRead = createAsyncThunk<{ id: string; unreadCount: number | null }, string, ThunkConfig>(
  'notifications/markRead',
  async (id, { rejectWithValue }) => {
    if (!validId(id)) return rejectWithValue(INVALID_NOTIFICATION_ID);
    try {
      await notificationsApi.markRead(id);
    } catch (e) {
      return rejectWithValue(errorMessage(e, NOTIFICATION_FALLBACK.markRead));
    }
    return { id, unreadCount: await serverUnreadCount() };
  },
);

export const markAllNotificationsRead = createAsyncThunk<void, void, ThunkConfig>(
  'notifications/markAllRead',
  async (_, { rejectWithValue }) => {
    try {
      await notificationsApi.markAllRead();
    } catch (e) {
      return rejectWithValue(errorMessage(e, NOTIFICATION_FALLBACK.markAll));
    }
  },
);

/**
 * Deletes one notification, then asks the server for the unread count (the lists held here are
 * partial: the dropdown's is empty until the bell opens), so the badge matches the server's.
 */
export const deleteNotification = createAsyncThunk<{ id: string; unreadCount: number | null }, string, ThunkConfig>(
  'notifications/delete',
  async (id, { rejectWithValue }) => {
    if (!validId(id)) return rejectWithValue(INVALID_NOTIFICATION_ID);
    try {
      await notificationsApi.remove(id);
    } catch (e) {
      return rejectWithValue(errorMessage(e, NOTIFICATION_FALLBACK.delete));
    }
    return { id, unreadCount: await serverUnreadCount() };
  },
);

export const sendAdminNotice = createAsyncThunk<
  { notification: UserNotification | null; addressedToSelf: boolean },
  { userId: string; content: string; navigateTo?: string },
  ThunkConfig
>('notifications/sendAdmin', async (body, { getState, rejectWithValue }) => {
  if (!body.userId || !body.content) return rejectWithValue('Missing userId or content');
  try {
    const r = await notificationsApi.sendAdmin(body);
    return { notification: r?.notification ?? null, addressedToSelf: getState().auth.user?._id === body.userId };
  } catch (e) {
    return rejectWithValue(errorMessage(e, NOTIFICATION_FALLBACK.send));
  }
});

/** Queues a notice to every user (the server answers 202 at once); `jobId` names its background job. */
export const broadcastNotice = createAsyncThunk<{ message: string | null; count: number | null; jobId: string | null }, { content: string }, ThunkConfig>(
  'notifications/broadcast',
  async (body, { rejectWithValue }) => {
    if (!body.content) return rejectWithValue('Content is required');
    try {
      const r = (await notificationsApi.broadcast(body)) as { message?: string; count?: number; jobId?: string } | null;
      return { message: r?.message ?? null, count: typeof r?.count === 'number' ? r.count : null, jobId: r?.jobId ?? null };
    } catch (e) {
      return rejectWithValue(errorMessage(e, NOTIFICATION_FALLBACK.broadcast));
    }
  },
);

export const replyToNotification = createAsyncThunk<UserNotification | null, { notificationId: string; content: string }, ThunkConfig>(
  'notifications/reply',
  async (body, { rejectWithValue }) => {
    if (!body.notificationId || !body.content) return rejectWithValue('Missing notificationId or content');
    try {
      const r = await notificationsApi.reply(body);
      return r?.notification ?? null;
    } catch (e) {
      return rejectWithValue(errorMessage(e, NOTIFICATION_FALLBACK.reply));
    }
  },
);

export const fetchUserHistory = createAsyncThunk<UserNotification[], string, ThunkConfig>(
  'notifications/fetchHistory',
  async (userId, { rejectWithValue }) => {
    if (!userId) return rejectWithValue('Missing userId');
    try {
      const r = await notificationsApi.history(userId);
      return r?.notifications ?? [];
    } catch (e) {
      return rejectWithValue(errorMessage(e, NOTIFICATION_FALLBACK.history));
    }
  },
);

function addToFront(state: NotificationsState, notification: UserNotification, { toInbox = true } = {}) {
  const list = state.list;
  listAdapter.setOne(list, notification);
  list.ids = [notification._id, ...list.ids.filter((id) => id !== notification._id)];
  if (list.ids.length > LIST_TRIM_ABOVE) listAdapter.removeMany(list, list.ids.slice(LIST_TRIM_TO));
  if (!toInbox) return;
  const inbox = state.inbox;
  if (inbox.status === 'succeeded' && matchesInboxType(notification, inbox.type)) {
    const isNew = !inbox.list.some((n) => n._id === notification._id);
    inbox.list = [notification, ...inbox.list.filter((n) => n._id !== notification._id)];
    if (isNew) inbox.total += 1;
  }
}

const notificationsSlice = createSlice({
  name: 'notifications',
  initialState: initialNotificationsState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(sessionUserChanged, () => initialNotificationsState)
      .addCase(fetchNotifications.fulfilled, (state, action) => {
        const { notifications, total, page } = action.payload;
        state.loading = false;
        state.page = page;
        state.total = total;
        // The first page replaces the list; a later one adds those not already in it, at the end.
        if (page <= 1) listAdapter.setAll(state.list, notifications);
        else listAdapter.addMany(state.list, notifications);
      })
      .addCase(fetchUnreadCount.fulfilled, (state, action) => {
        state.loading = false;
        state.unreadCount = action.payload;
      })
      .addCase(fetchInbox.pending, (state, action) => {
        const type = action.meta.arg.type ?? null;
        state.inbox.requestId = action.meta.requestId;
        state.inbox.status = 'loading';
        state.inbox.error = null;
        if (type !== state.inbox.type) {
          state.inbox.type = type;
          state.inbox.list = [];
          state.inbox.total = 0;
          state.inbox.page = 1;
        }
      })
      .addCase(fetchInbox.fulfilled, (state, action) => {
        if (state.inbox.requestId !== action.meta.requestId) return;
        const { notifications, total, page, unreadCount } = action.payload;
        if (unreadCount !== null) state.unreadCount = unreadCount;
        const inbox = state.inbox;
        inbox.requestId = null;
        inbox.status = 'succeeded';
        inbox.page = page;
        inbox.total = total;
        if (page <= 1) {
          inbox.list = notifications;
        } else {
          const seen = new Set(inbox.list.map((n) => n._id));
          inbox.list = [...inbox.list, ...notifications.filter((n) => !seen.has(n._id))];
        }
      })
      .addCase(fetchInbox.rejected, (state, action) => {
        if (state.inbox.requestId !== action.meta.requestId) return;
        state.inbox.requestId = null;
        state.inbox.status = 'failed';
        state.inbox.error = action.payload ?? NOTIFICATION_FALLBACK.fetch;
      })
      .addCase(markNotificationRead.fulfilled, (state, action) => {
        const { id, unreadCount } = action.payload;
        state.loading = false;
        const item = state.list.entities[id];
        if (item) item.read = true;
        for (const n of state.inbox.list) if (n._id === id) n.read = true;
        // The server's count when it answered; else one less (seed 000 §4), never below 0.
        state.unreadCount = unreadCount ?? Math.max(0, state.unreadCount - 1);
      })
      .addCase(markAllNotificationsRead.fulfilled, (state) => {
        state.loading = false;
        for (const n of [...Object.values(state.list.entities), ...state.inbox.list]) n.read = true;
        state.unreadCount = 0;
      })
      .addCase(deleteNotification.fulfilled, (state, action) => {
        const { id, unreadCount } = action.payload;
        state.loading = false;
        const removed = state.list.entities[id] ?? state.inbox.list.find((n) => n._id === id);
        listAdapter.removeOne(state.list, id);
        const before = state.inbox.list.length;
        state.inbox.list = state.inbox.list.filter((n) => n._id !== id);
        state.inbox.total = Math.max(0, state.inbox.total - (before - state.inbox.list.length));
        // The server's count when it answered; else one less if the deleted one was unread.
        if (unreadCount !== null) state.unreadCount = unreadCount;
        else if (removed && !removed.read) state.unreadCount = Math.max(0, state.unreadCount - 1);
      })
      .addCase(sendAdminNotice.fulfilled, (state, action) => {
        state.loading = false;
        // An administrator notice joins the local list only when the administrator is the addressee.
        const { notification, addressedToSelf } = action.payload;
        if (notification && addressedToSelf) {
          addToFront(state, notification);
          if (!notification.read) state.unreadCount += 1;
        }
      })
      .addCase(broadcastNotice.fulfilled, (state) => {
        state.loading = false;
      })
      .addCase(replyToNotification.fulfilled, (state, action) => {
        state.loading = false;
        if (!action.payload) return;
        // The dropdown's list takes it at the front; the inbox shows it under the notice it answers.
        addToFront(state, action.payload, { toInbox: false });
        const answered = action.payload.replyTo || action.meta.arg.notificationId;
        const thread = state.inbox.replies[answered] ?? [];
        state.inbox.replies[answered] = [...thread.filter((r) => r._id !== action.payload!._id), action.payload];
      })
      .addCase(fetchUserHistory.fulfilled, (state, action) => {
        state.loading = false;
        state.userNotificationHistory = action.payload;
      })
      .addCase(socketEvents.notificationReceived, (state, action) => {
        const isNew = state.list.entities[action.payload._id] === undefined;
        addToFront(state, action.payload);
        if (isNew && !action.payload.read) state.unreadCount += 1;
      })
      .addCase(socketEvents.unreadCountUpdated, (state, action) => {
        state.unreadCount = action.payload;
      })
      .addMatcher(
        isPending(
          fetchNotifications,
          fetchUnreadCount,
          markNotificationRead,
          markAllNotificationsRead,
          deleteNotification,
          sendAdminNotice,
          broadcastNotice,
          replyToNotification,
          fetchUserHistory,
        ),
        (state, action) => {
          // The unread badge refreshes quietly; everything else shows as loading.
          if (action.type !== fetchUnreadCount.pending.type) state.loading = true;
          state.error = null;
        },
      )
      .addMatcher(
        (action: UnknownAction): action is { type: string; payload: string | undefined } =>
          action.type.startsWith('notifications/') && action.type.endsWith('/rejected') && action.type !== fetchInbox.rejected.type,
        (state, action) => {
          state.loading = false;
          state.error = action.payload ?? 'Request failed';
        },
      );
  },
});

export const notificationsReducer = notificationsSlice.reducer;

export const selectNotifications = (state: { notifications: NotificationsState }) => state.notifications;
export const selectUnreadCount = (state: { notifications: NotificationsState }) => state.notifications.unreadCount;
/** The dropdown's list, newest first. */
export const selectNotificationList = listAdapter.getSelectors((state: { notifications: NotificationsState }) => state.notifications.list).selectAll;
