export { AdBlockerScreen, AD_BLOCKER_TITLE } from './ad-blocker-screen';
