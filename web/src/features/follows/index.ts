export * from './follows-slice';
export { FollowButton } from './components/follow-button';
