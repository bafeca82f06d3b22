// Web Push on the page side: this device's subscription, the person's devices and preferences.
export { PushSettings } from './components/push-settings';
export { PushInboxControl } from './components/push-inbox-control';
