export * from './notifications-slice';
export { notificationText, notificationLink } from './notification-text';
export { NotificationBell } from './components/notification-bell';
