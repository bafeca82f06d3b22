export * from './users-slice';
export { addUsersListeners } from './users-listeners';
