import { useEffect, useState } from 'react';
import { listSaved, OFFLINE_CHANGED, type SavedPost } from '@/lib/offline-db';

/** The posts saved on this device (null while being read), read again when the worker changes them. */
export function useSavedPosts(): SavedPost[] | null {
  const [saved, setSaved] = useState<SavedPost[] | null>(null);
  useEffect(() => {
    let live = true;
    const read = () =>
      void listSaved()
        .catch(() => [])
        .then((list) => {
          if (live) setSaved(list);
        });
    const onMessage = (event: MessageEvent<{ type?: unknown } | null>) => {
      if (event.data?.type === OFFLINE_CHANGED) read();
    };
    read();
    navigator.serviceWorker?.addEventListener('message', onMessage);
    return () => {
      live = false;
      navigator.serviceWorker?.removeEventListener('message', onMessage);
    };
  }, []);
  return saved;
}
