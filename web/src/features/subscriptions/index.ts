export * from './subscriptions-slice';
export { SUBSCRIPTION_FALLBACK, SUBSCRIPTION_MESSAGES, MISSING_PLAN_ID, MISSING_TOKEN } from './subscriptions-api';
export { TestModeBadge } from './components/test-mode-badge';
export { AuthorMoneyStudio, STUDIO_TABS } from './components/author-money-studio';
