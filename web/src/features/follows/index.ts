export * from './follows-slice';
export { addFollowsListeners } from './follows-listeners';
export { FollowButton } from './components/follow-button';
export { AlertsMenu, AuthorAlertsMenu, type AlertsMenuProps } from './components/alerts-menu';
export { NewsletterForm } from './components/newsletter-form';
export * from './alerts';
