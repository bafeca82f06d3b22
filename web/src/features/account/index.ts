export { SessionList, TwoFactorSection } from './account-security';
export { DeleteAccountSection } from './leave-section';
export { YourDataSection } from './your-data-section';
export { PasskeysSection } from './passkeys-section';
export { PasswordSection } from './password-section';
export { SecurityLog } from './security-log';
