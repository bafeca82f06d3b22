export { SessionList, TwoFactorSection } from './account-security';
export { DeleteAccountSection } from './leave-section';
export { YourDataSection } from './your-data-section';
