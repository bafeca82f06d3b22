export * from './banner-slice';
export { BannerNotice, useBannerSync } from './banner-notice';
