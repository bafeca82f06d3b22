export * from './feedback-slice';
export { FeedbackModal } from './feedback-modal';
