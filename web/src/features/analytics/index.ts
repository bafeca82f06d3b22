export * from './analytics';
export { EngagementPanel, PostStatsPanel } from './components/analytics-panel';
