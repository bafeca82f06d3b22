export * from './follows-slice';
export { addFollowsListeners } from './follows-listeners';
export { FollowButton } from './components/follow-button';
