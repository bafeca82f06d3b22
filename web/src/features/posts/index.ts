export * from './posts-slice';
export * from './suggested-slice';
export { addPostsListeners } from './posts-listeners';
export { usePostList } from './use-post-list';
