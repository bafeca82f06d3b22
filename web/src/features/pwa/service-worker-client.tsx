import { useEffect } from 'react';
import { OfflineSession } from '@/features/offline';
import { registerServiceWorker } from './register-service-worker';
import { UpdatePromptBox } from './update-prompt';
import { useUpdateGeneration } from './update-state';

let registered = false;

/** Registers the worker once per page load. */
function registerOnce(): void {
  if (registered) return;
  registered = true;
  registerServiceWorker().catch((error: unknown) => console.warn('The service worker could not be registered', error));
}

/**
 * The update prompt's place, under the top bar: a polite live region that is there
 * before any new version can be found, so the prompt is announced when it appears (the focus
 * left where it is).
 */
export function UpdatePromptRegion() {
  const generation = useUpdateGeneration();
  return (
    <div className="update-prompt" role="status" aria-live="polite" data-testid="update-prompt">
      {generation > 0 ? <UpdatePromptBox generation={generation} /> : null}
    </div>
  );
}

/**
 * Registers the service worker and shows the update prompt when a new version waits; tells the
 * worker who is signed in (the offline reading list is theirs).
 */
export default function ServiceWorkerClient() {
  useEffect(registerOnce, []);
  return (
    <>
      <UpdatePromptRegion />
      <OfflineSession />
    </>
  );
}
