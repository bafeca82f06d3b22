import type { ReactNode } from 'react';
import type { Post } from '@/types/entities';
import { PostCard } from './post-card';
import { useInfiniteScroll } from './use-infinite-scroll';

export interface FeedState {
  items: Post[];
  status: 'idle' | 'loading' | 'succeeded' | 'failed';
  error: string | null;
  hasMore: boolean;
}

interface PostFeedProps {
  feed: FeedState;
  /** Loads the next page (as the reader nears the end, or with the Load more button). */
  onLoadMore?: () => void;
  onRetry?: () => void;
  empty: ReactNode;
  label: string;
  actions?: (post: Post) => ReactNode;
}

/** Placeholder cards shown while a list's first page loads. */
export const SKELETON_CARDS = 6;

/**
 * A card's placeholder: the same box as a card with a thumbnail (the thumbnail's 16:9 space, a
 * line for the category, two for the title, three for the excerpt, one for the tags, the byline
 * and the counts), so the cards that replace it take the room it held.
 */
export function PostCardSkeleton() {
  return (
    <div className="post-card post-card--skeleton" aria-hidden="true" data-testid="post-card-skeleton">
      <span className="skeleton skeleton--thumb" />
      <span className="skeleton skeleton--pill" />
      <span className="skeleton skeleton--title" />
      <span className="skeleton skeleton--text" />
      <span className="skeleton skeleton--text" />
      <span className="skeleton skeleton--text skeleton--short" />
      <span className="skeleton skeleton--meta" />
      <span className="skeleton skeleton--meta skeleton--short" />
    </div>
  );
}

/** A list of post cards with its loading, empty and error states, loaded page by page. */
export function PostFeed({ feed, onLoadMore, onRetry, empty, label, actions }: PostFeedProps) {
  const { items, status, error, hasMore } = feed;
  const canLoadMore = Boolean(onLoadMore) && hasMore && status !== 'loading' && status !== 'failed';
  const sentinel = useInfiniteScroll<HTMLDivElement>(() => onLoadMore?.(), canLoadMore);
  return (
    <section className="post-feed" aria-label={label} aria-busy={status === 'loading'}>
      {status === 'failed' ? (
        <div className="feed-state feed-state--error" role="alert">
          <span>{error}</span>
          {onRetry ? (
            <button type="button" className="button button--small button--ghost" onClick={onRetry}>
              Try again
            </button>
          ) : null}
        </div>
      ) : null}
      {status === 'succeeded' && items.length === 0 ? <div className="feed-state muted">{empty}</div> : null}
      {items.length > 0 ? (
        <ul className="post-grid">
          {items.map((post, i) => (
            <li key={post._id}>
              <PostCard post={post} actions={actions?.(post)} priority={i === 0} />
            </li>
          ))}
        </ul>
      ) : null}
      {status === 'loading' && items.length === 0 ? (
        <ul className="post-grid" aria-hidden="true">
          {Array.from({ length: SKELETON_CARDS }, (_, i) => (
            <li key={i}>
              <PostCardSkeleton />
            </li>
          ))}
        </ul>
      ) : null}
      {status === 'loading' ? (
        <p className={items.length === 0 ? 'visually-hidden' : 'feed-state muted'} role="status">
          Loading...
        </p>
      ) : null}
      {canLoadMore ? (
        <div ref={sentinel} className="feed-more">
          <button type="button" className="button button--ghost" onClick={onLoadMore}>
            Load more
          </button>
        </div>
      ) : null}
    </section>
  );
}
