export * from './posts-slice';
export { addPostsListeners } from './posts-listeners';
