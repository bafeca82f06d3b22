/**
 * Bridges the one socket of lib/socket.ts to the store: opens it on request, turns server events
 * into actions, keeps the status, raises the connection toasts with their rate limits, and joins
 * the user's rooms.
 */
import type { Middleware } from '@reduxjs/toolkit';
import type { Socket } from 'socket.io-client';
import {
  clearPendingEmits,
  closeSocket,
  flushPendingEmits,
  joinUserRooms,
  loadSocketClient,
  openSocket,
  rejoinRooms,
  socketClientLoaded,
} from '@/lib/socket';
import { textOf } from '@/lib/format';
import { createKeyedBatch } from '@/lib/keyed-batch';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import type { BannerNotification, GuestVisit, PostCounts, UserLocation, UserNotification } from '@/types/entities';
import { ADMIN_SOCKET_EVENTS, coerceCount, DEFAULT_FEEDBACK_PROMPT, postDeliveryEvents, socketEvents, tipReceivedFrom, type TipReceived } from './socket-events';
import {
  initUserSocket,
  socketActions,
  socketConnectRequested,
  socketDisconnectRequested,
  socketUserLeft,
} from './socket-slice';

export const TOAST_RATE_LIMIT_MS = 10_000;
/** Before the text of an administrator's notice to everyone, in its toast. */
export const NOTICE_TOAST_PREFIX = 'Notice from the administrators: ';
/** Incoming location and guest-visit events are debounced by 1 second (seed 000 §7). */
export const LIVE_EVENT_DEBOUNCE_MS = 1000;
export const SOCKET_MESSAGES = {
  cannotConnect: "Can't connect to server. Please try again.",
  offline: 'Offline. Check your connection.',
  online: 'Back online.',
  lost: 'Socket lost. Retrying...',
  connected: 'Connected to server.',
} as const;

/** The writer's toast for a tip: who, how much, and their message. */
export function tipToastText(tip: TipReceived): string {
  return `${tip.from?.name ?? 'A reader'} tipped you ${formatMoney(tip.amount, tip.currency)}${tip.message ? `: “${tip.message}”` : ''}`;
}

function idOf(value: unknown): string | null {
  if (typeof value === 'string' && value) return value;
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const key of ['id', '_id', 'notificationId']) {
      const found = obj[key];
      if (typeof found === 'string' && found) return found;
    }
  }
  return null;
}

export function createSocketMiddleware(): Middleware {
  return (api) => {
    let lastCannotConnectToast = Number.NEGATIVE_INFINITY;
    let lastLostToast = Number.NEGATIVE_INFINITY;
    let hadProblem = false;
    const locations = createKeyedBatch<UserLocation>(
      LIVE_EVENT_DEBOUNCE_MS,
      (l) => String(l.userId),
      (items) => items.forEach((l) => api.dispatch(socketEvents.userLocationUpdated(l))),
    );
    const guestVisits = createKeyedBatch<GuestVisit>(
      LIVE_EVENT_DEBOUNCE_MS,
      (v) => String(v.guestId),
      (items) => items.forEach((v) => api.dispatch(socketEvents.guestVisitUpdated(v))),
    );

    function attach(socket: Socket) {
      const dispatch = api.dispatch;
      socket.on('connect', () => {
        dispatch(socketActions.connected());
        rejoinRooms();
        flushPendingEmits();
        if (hadProblem) toast.success(SOCKET_MESSAGES.connected);
        hadProblem = false;
      });
      socket.on('connect_error', (error: Error) => {
        dispatch(socketActions.connectFailed(error?.message || SOCKET_MESSAGES.cannotConnect));
        hadProblem = true;
        const now = Date.now();
        if (now - lastCannotConnectToast >= TOAST_RATE_LIMIT_MS) {
          lastCannotConnectToast = now;
          toast.error(SOCKET_MESSAGES.cannotConnect);
        }
      });
      socket.on('disconnect', (reason: string) => {
        dispatch(socketActions.disconnected());
        if (reason === 'io client disconnect') return;
        // The server ended it on purpose (socket.io-client does not reconnect then): whether the
        // session still stands is for the auth check to say.
        if (reason === 'io server disconnect') {
          dispatch(socketEvents.serverDisconnected());
          return;
        }
        hadProblem = true;
        const now = Date.now();
        if (now - lastLostToast >= TOAST_RATE_LIMIT_MS) {
          lastLostToast = now;
          toast.error(SOCKET_MESSAGES.lost);
        }
      });

      socket.on('onlineUsersCount', (count: unknown) => {
        dispatch(socketEvents.onlineUsersCountReceived(coerceCount(count)));
      });
      socket.on('newNotification', (notification: UserNotification) => {
        if (notification && typeof notification === 'object') dispatch(socketEvents.notificationReceived(notification));
      });
      socket.on('updateUnreadCount', (count: unknown) => {
        dispatch(socketEvents.unreadCountUpdated(coerceCount(count)));
      });
      socket.on('userStatus', (a: unknown, b?: unknown) => {
        const payload =
          a && typeof a === 'object'
            ? { userId: textOf((a as Record<string, unknown>).userId), isOnline: Boolean((a as Record<string, unknown>).isOnline) }
            : { userId: textOf(a), isOnline: Boolean(b) };
        if (payload.userId) dispatch(socketEvents.userStatusChanged(payload));
      });
      socket.on('userLocationUpdate', (location: UserLocation) => {
        if (location && typeof location === 'object') locations.add(location);
      });
      socket.on('newAppeal', (a: unknown, b?: unknown) => {
        const payload =
          a && typeof a === 'object'
            ? { postId: textOf((a as Record<string, unknown>).postId), postTitle: textOf((a as Record<string, unknown>).postTitle) }
            : { postId: textOf(a), postTitle: textOf(b) };
        dispatch(socketEvents.appealReceived(payload));
        toast.info(`New appeal for post: ${payload.postTitle}`);
      });
      socket.on('appealDecided', (a: unknown, b?: unknown) => {
        const payload =
          a && typeof a === 'object'
            ? { appealId: textOf((a as Record<string, unknown>).appealId), status: textOf((a as Record<string, unknown>).status) }
            : { appealId: textOf(a), status: textOf(b) };
        if (payload.appealId) dispatch(socketEvents.appealDecided(payload));
      });
      // An administrator's notice to everyone has its own event; the notice itself reaches the
      // bell as the user's own newNotification, so here it is only announced.
      socket.on('adminNoticeBroadcast', (notice: unknown) => {
        const content = notice && typeof notice === 'object' ? (notice as Record<string, unknown>).content : null;
        if (typeof content === 'string' && content) toast.info(`${NOTICE_TOAST_PREFIX}${content}`);
      });
      socket.on('newBroadcastNotification', (banner: BannerNotification) => {
        // Banners only (a title and a message); anything else is not shown as a banner.
        if (banner && typeof banner === 'object' && banner._id && typeof banner.title === 'string' && typeof banner.message === 'string') {
          dispatch(socketEvents.broadcastReceived(banner));
        }
      });
      socket.on('broadcastNotificationDismissed', (value: unknown) => {
        const id = idOf(value);
        if (id) dispatch(socketEvents.broadcastDismissed(id));
      });
      socket.on('broadcastNotificationDeactivated', (value: unknown) => {
        const id = idOf(value);
        if (id) dispatch(socketEvents.broadcastDeactivated(id));
      });
      socket.on('broadcastNotificationDeletedAll', () => {
        dispatch(socketEvents.broadcastDeletedAll());
      });
      socket.on('showFeedbackPrompt', (value: unknown) => {
        const message =
          typeof value === 'string'
            ? value
            : value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string'
              ? (value as { message: string }).message
              : '';
        dispatch(socketEvents.feedbackPromptReceived(message.trim() ? message : DEFAULT_FEEDBACK_PROMPT));
      });
      socket.on('postCountsUpdated', (counts: Partial<PostCounts>) => {
        dispatch(socketEvents.postCountsUpdated(counts && typeof counts === 'object' ? counts : {}));
      });
      socket.on('postBlockToggled', (a: unknown, b?: unknown) => {
        const payload =
          a && typeof a === 'object'
            ? { postId: textOf((a as Record<string, unknown>).postId), blocked: Boolean((a as Record<string, unknown>).blocked) }
            : { postId: textOf(a), blocked: Boolean(b) };
        if (payload.postId) dispatch(socketEvents.postBlockToggled(payload));
      });
      socket.on('postDeliveryUpdated', (value: unknown) => {
        if (!value || typeof value !== 'object') return;
        const v = value as Record<string, unknown>;
        const figures = {
          postId: textOf(v.postId),
          notices: Number(v.notices) || 0,
          emailsSent: Number(v.emailsSent) || 0,
          emailsFailed: Number(v.emailsFailed) || 0,
          done: Boolean(v.done),
        };
        if (!figures.postId) return;
        dispatch(socketEvents.postDeliveryUpdated(figures));
        postDeliveryEvents.dispatchEvent(new CustomEvent('update', { detail: figures }));
      });
      socket.on('tipReceived', (value: unknown) => {
        const tip = tipReceivedFrom(value);
        if (!tip) return;
        dispatch(socketEvents.tipReceived(tip));
        toast.success(tipToastText(tip));
      });
      socket.on('importProgress', (value: unknown) => {
        if (value && typeof value === 'object') dispatch(socketEvents.importProgressReceived(value as Record<string, unknown>));
      });
      socket.on('guestVisitUpdate', (visit: GuestVisit) => {
        if (visit && typeof visit === 'object') guestVisits.add(visit);
      });
      for (const [name, action] of Object.entries(ADMIN_SOCKET_EVENTS)) {
        socket.on(name, (payload: unknown) => {
          if (payload && typeof payload === 'object') dispatch(action(payload as Record<string, unknown>));
        });
      }
    }

    /** Connect and disconnect requests so far: a load that finishes late serves only the last. */
    let requests = 0;

    function open(token: string | null) {
      const { socket, created } = openSocket(token);
      if (created) {
        locations.clear();
        guestVisits.clear();
        attach(socket);
      } else if (socket.connected) api.dispatch(socketActions.connected());
      // Reconnection gave up (5 attempts): a new request starts over.
      else if (!socket.active) socket.connect();
    }

    return (next) => (action) => {
      const result = next(action);
      if (socketConnectRequested.match(action)) {
        const token = action.payload.token;
        const request = ++requests;
        if (socketClientLoaded()) open(token);
        else {
          // The first request loads socket.io-client; only the latest request still standing
          // when it arrives opens the socket.
          loadSocketClient().then(
            () => {
              if (request === requests) open(token);
            },
            () => {
              if (request === requests) api.dispatch(socketActions.connectFailed(SOCKET_MESSAGES.cannotConnect));
            },
          );
        }
      } else if (socketDisconnectRequested.match(action)) {
        requests += 1;
        joinUserRooms(null);
        clearPendingEmits();
        locations.clear();
        guestVisits.clear();
        closeSocket();
      } else if (initUserSocket.fulfilled.match(action)) {
        joinUserRooms(action.payload);
      } else if (socketUserLeft.match(action)) {
        joinUserRooms(null);
      }
      return result;
    };
  };
}
