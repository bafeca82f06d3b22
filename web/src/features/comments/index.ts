export * from './comments-slice';
export { CommentsSection } from './components/comments-section';
