export * from './interactions-slice';
export { addEngagementListeners } from './engagement-listeners';
export { EngagementBar } from './components/engagement-bar';
export { PollBlock } from './components/poll-block';
export { useReadingTracker } from './use-reading-tracker';
