export * from './admin-slice';
export { addAdminListeners } from './admin-entry';
export { operationsReducer } from './operations-slice';
export { ADMIN_FALLBACK, SERVER_UNAVAILABLE, EXPORT_FILE_NAME, ADMIN_PAGE_SIZE, adminApi } from './admin-api';
export type * from './admin-types';
