// The installable app's page side: registering the service worker and the update prompt.
export { ServiceWorkerUpdates } from './service-worker-updates';
