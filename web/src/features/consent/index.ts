export * from './consent-slice';
export { CookieConsentBar } from './cookie-consent-bar';
