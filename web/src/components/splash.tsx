import { PRODUCT_NAME } from './animated-logo';

export const SPLASH_MS = 1000;

export function Splash() {
  return (
    <div className="splash" role="status" aria-label={`${PRODUCT_NAME} is starting`} data-testid="splash">
      <img src="/logo.svg" alt="" width={64} height={64} className="splash__logo" />
      <span className="splash__name">{PRODUCT_NAME}</span>
    </div>
  );
}
