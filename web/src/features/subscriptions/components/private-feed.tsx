import { useEffect, useState } from 'react';
import {
  useDeleteSubscriptionPrivateFeedByAuthorIdMutation,
  useLazyGetSubscriptionPrivateFeedByAuthorIdQuery,
  usePostSubscriptionPrivateFeedByAuthorIdResetMutation,
} from '@/api/endpoints';
import { errorMessage } from '@/lib/http';

export const PRIVATE_FEED_FALLBACK = {
  load: 'Failed to load your private feed',
  reset: 'Failed to make a new feed address',
  remove: 'Failed to remove your private feed',
} as const;

/**
 * A subscriber's private feed of an author: the address to paste into a feed reader (every post
 * in full, for as long as the subscription gives access), a new address when the old one was
 * shared, and removal. The address is secret and never listed anywhere.
 */
export function PrivateFeed({ authorId }: { authorId: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [state, setState] = useState<'idle' | 'loading' | 'ready' | 'removed' | 'failed'>('idle');
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [loadFeed] = useLazyGetSubscriptionPrivateFeedByAuthorIdQuery();
  const [resetFeed] = usePostSubscriptionPrivateFeedByAuthorIdResetMutation();
  const [removeFeed] = useDeleteSubscriptionPrivateFeedByAuthorIdMutation();

  const run = async (work: () => Promise<string | null>, fallback: string) => {
    setState('loading');
    setError(null);
    setCopied(false);
    try {
      const next = await work();
      setUrl(next);
      setState(next ? 'ready' : 'removed');
    } catch (e) {
      setError(errorMessage(e, fallback));
      setState('failed');
    }
  };

  useEffect(() => {
    let live = true;
    setState('loading');
    loadFeed({ authorId })
      .unwrap()
      .then((r) => {
        if (!live) return;
        setUrl(r.url);
        setState('ready');
      })
      .catch((e: unknown) => {
        if (!live) return;
        setError(errorMessage(e, PRIVATE_FEED_FALLBACK.load));
        setState('failed');
      });
    return () => {
      live = false;
    };
  }, [authorId, loadFeed]);

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  return (
    <section className="panel" aria-labelledby="private-feed-title" data-testid="private-feed">
      <h2 id="private-feed-title">Your private feed</h2>
      <p className="muted">
        Every post of this author in full, in your feed reader, for as long as your subscription lasts. Keep the address to yourself.
      </p>
      {state === 'loading' && !url ? (
        <p role="status" className="muted">
          Loading...
        </p>
      ) : null}
      {url ? (
        <>
          <label className="field">
            <span>Feed address</span>
            <input type="text" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <div className="button-row">
            <button type="button" className="button button--small" onClick={() => void copy()}>
              {copied ? 'Copied' : 'Copy address'}
            </button>
            <button
              type="button"
              className="button button--small button--ghost"
              disabled={state === 'loading'}
              onClick={() => void run(async () => (await resetFeed({ authorId }).unwrap()).url, PRIVATE_FEED_FALLBACK.reset)}
            >
              New address
            </button>
            <button
              type="button"
              className="button button--small button--ghost"
              disabled={state === 'loading'}
              onClick={() =>
                void run(async () => {
                  await removeFeed({ authorId }).unwrap();
                  return null;
                }, PRIVATE_FEED_FALLBACK.remove)
              }
            >
              Remove feed
            </button>
          </div>
        </>
      ) : null}
      {state === 'removed' ? (
        <p role="status">
          Your private feed is removed.{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => void run(async () => (await loadFeed({ authorId }).unwrap()).url, PRIVATE_FEED_FALLBACK.load)}
          >
            Make a new one
          </button>
        </p>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
