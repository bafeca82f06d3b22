export * from './analytics-slice';
export { EngagementPanel, PostStatsPanel } from './components/analytics-panel';
