/**
 * The app's single socket.io-client instance. Only the socket middleware
 * (features/socket/socket-middleware.ts) calls into this module; components never open sockets
 * and the socket object never enters the store.
 *
 * socket.io-client is not part of the first load: it is imported when the socket is first asked
 * for (after the first paint, when the main thread is idle), see `loadSocketClient`.
 */
import type { Socket } from 'socket.io-client';
import { GUEST_ID_KEY, storage } from '@/lib/storage';

export const SOCKET_PATH = '/socket.io/';
export const RECONNECTION_ATTEMPTS = 5;
export const RECONNECTION_DELAY_MS = 2000;
export const ADMIN_ROOM = 'adminRoom';

export interface SocketUser {
  userId: string;
  role: string | null;
}

type Io = typeof import('socket.io-client').io;

let io: Io | null = null;
let loading: Promise<Io> | null = null;

/** Loads socket.io-client (once); resolves with its `io`. */
export function loadSocketClient(): Promise<Io> {
  if (io) return Promise.resolve(io);
  loading ??= import('socket.io-client').then(
    (m) => {
      io = m.io;
      return m.io;
    },
    (error: unknown) => {
      // A failed chunk load (offline, a new deployment) is tried again on the next request.
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Whether socket.io-client is loaded, so `openSocket` can run now. */
export function socketClientLoaded(): boolean {
  return io !== null;
}

/** Test helper: forget the loaded client, as on a fresh page. */
export function unloadSocketClientForTests(): void {
  io = null;
  loading = null;
}

let socket: Socket | null = null;
let socketToken: string | null = null;
let joinedUser: SocketUser | null = null;
/** Events waiting for a connection, latest payload per event name. */
const pending = new Map<string, unknown[]>();

/**
 * What the socket sends in its handshake: the token of a signed-in user, else the guest id the
 * server issued (so a guest's tabs count once online). Read at every (re)connect, so a guest id
 * issued after the socket opened is sent on the next connect.
 */
export function socketAuth(token: string | null): Record<string, string> {
  if (token) return { token };
  const guestId = storage.get(GUEST_ID_KEY);
  return guestId ? { guestId } : {};
}

/** Options handed to `io()`: websocket first, then polling; token or guest id in the handshake. */
export function socketOptions(token: string | null) {
  return {
    path: SOCKET_PATH,
    transports: ['websocket', 'polling'],
    auth: (cb: (data: object) => void) => cb(socketAuth(token)),
    withCredentials: true,
    reconnection: true,
    reconnectionAttempts: RECONNECTION_ATTEMPTS,
    reconnectionDelay: RECONNECTION_DELAY_MS,
  };
}

/**
 * Returns the socket for this token, creating it (and closing an older one with another token).
 * `created` tells the caller whether listeners must be attached. socket.io-client must be loaded
 * (`loadSocketClient`).
 */
export function openSocket(token: string | null): { socket: Socket; created: boolean } {
  if (socket && socketToken === token) return { socket, created: false };
  if (!io) throw new Error('socket.io-client is not loaded');
  closeSocket();
  socketToken = token;
  socket = io(socketOptions(token));
  return { socket, created: true };
}

export function getSocket(): Socket | null {
  return socket;
}

export function closeSocket(): void {
  if (socket) {
    socket.removeAllListeners();
    socket.io.removeAllListeners?.();
    socket.disconnect();
  }
  socket = null;
  socketToken = null;
}

function emitJoins(s: Socket, user: SocketUser) {
  s.emit('join', user.userId);
  if (user.role === 'admin') s.emit('join', ADMIN_ROOM);
}

/** Remembers the user and joins its rooms now (if connected) and after every reconnect. */
export function joinUserRooms(user: SocketUser | null): void {
  // What a user who left had queued is not sent for the next one.
  if (joinedUser && joinedUser.userId !== user?.userId) pending.clear();
  joinedUser = user;
  if (socket?.connected && user) emitJoins(socket, user);
}

/** Called by the middleware on every `connect`: rooms do not survive a reconnect. */
export function rejoinRooms(): void {
  if (socket && joinedUser) emitJoins(socket, joinedUser);
}

/**
 * Sends an event now if the socket is connected, else keeps it (only the latest per event name)
 * and sends it on the next connect. Returns whether it went out now.
 */
export function emitWhenConnected(event: string, ...args: unknown[]): boolean {
  if (socket?.connected) {
    pending.delete(event);
    socket.emit(event, ...args);
    return true;
  }
  pending.set(event, args);
  return false;
}

/** Forgets every queued event (the app closed the socket on purpose). */
export function clearPendingEmits(): void {
  pending.clear();
}

/** Called by the middleware on every `connect`, after the rooms are joined. */
export function flushPendingEmits(): void {
  if (!socket?.connected) return;
  for (const [event, args] of pending) socket.emit(event, ...args);
  pending.clear();
}
