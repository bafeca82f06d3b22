export * from './feedback-slice';
export { FeedbackPrompt } from './feedback-prompt';
