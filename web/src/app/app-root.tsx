import { useEffect, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { Splash, SPLASH_MS } from '@/components/splash';
import { Toaster } from '@/components/toaster';
import { AdBlockerScreen } from '@/features/ad-blocker';
import { CookieConsentBar } from '@/features/consent';
import { ReauthDialog } from '@/features/auth';
import { FeedbackPrompt } from '@/features/feedback';
import { LocationErrorToast } from '@/features/location';
import { ServiceWorkerUpdates } from '@/features/pwa';
import { wasServerRendered } from './initial-data';
import { useAppLifecycle } from './use-app-lifecycle';

let splashDone = false;

/** Test helper: show (or skip) the splash on the next mount. */
export function setSplashDone(done: boolean) {
  splashDone = done;
}

/** The root route: global effects, the 1 s splash, and the overlays shared by every screen. */
export function AppRoot() {
  useAppLifecycle();
  // A page the server already painted is not hidden behind the splash (docs/decisions.md).
  const [showSplash, setShowSplash] = useState(!splashDone && !wasServerRendered());

  useEffect(() => {
    if (!showSplash) return;
    const timer = setTimeout(() => {
      splashDone = true;
      setShowSplash(false);
    }, SPLASH_MS);
    return () => clearTimeout(timer);
  }, [showSplash]);

  if (showSplash) return <Splash />;
  return (
    <>
      <Outlet />
      <CookieConsentBar />
      <FeedbackPrompt />
      <ReauthDialog />
      <Toaster>
        <LocationErrorToast />
      </Toaster>
      <ServiceWorkerUpdates />
      <AdBlockerScreen />
    </>
  );
}
