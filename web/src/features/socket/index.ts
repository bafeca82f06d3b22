export * from './socket-events';
export * from './socket-slice';
export { createSocketMiddleware, SOCKET_MESSAGES, TOAST_RATE_LIMIT_MS, tipToastText } from './socket-middleware';
export { useConnectivityToasts } from './use-connectivity-toasts';
export { OnlineIndicator } from './components/online-indicator';
