/**
 * The app's single socket.io-client instance. Only the socket middleware
 * (features/socket/socket-middleware.ts) calls into this module; components never open sockets
 * and the socket object never enters the store.
 */
import { io, type Socket } from 'socket.io-client';

export const SOCKET_PATH = '/socket.io/';
export const RECONNECTION_ATTEMPTS = 5;
export const RECONNECTION_DELAY_MS = 2000;
export const ADMIN_ROOM = 'adminRoom';

export interface SocketUser {
  userId: string;
  role: string | null;
}

let socket: Socket | null = null;
let socketToken: string | null = null;
let joinedUser: SocketUser | null = null;

/** Options handed to `io()`: websocket first, then polling; token in the handshake. */
export function socketOptions(token: string | null) {
  return {
    path: SOCKET_PATH,
    transports: ['websocket', 'polling'],
    auth: token ? { token } : {},
    withCredentials: true,
    reconnection: true,
    reconnectionAttempts: RECONNECTION_ATTEMPTS,
    reconnectionDelay: RECONNECTION_DELAY_MS,
  };
}

/**
 * Returns the socket for this token, creating it (and closing an older one with another token).
 * `created` tells the caller whether listeners must be attached.
 */
export function openSocket(token: string | null): { socket: Socket; created: boolean } {
  if (socket && socketToken === token) return { socket, created: false };
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
  joinedUser = user;
  if (socket?.connected && user) emitJoins(socket, user);
}

/** Called by the middleware on every `connect`: rooms do not survive a reconnect. */
export function rejoinRooms(): void {
  if (socket && joinedUser) emitJoins(socket, joinedUser);
}

export function emitEvent(event: string, ...args: unknown[]): boolean {
  if (!socket?.connected) return false;
  socket.emit(event, ...args);
  return true;
}
