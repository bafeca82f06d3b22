import { Link } from 'react-router-dom';
import { Page } from '@/components/page';
import { formatDate } from '@/lib/format';
import type { SavedPost } from '@/lib/offline-db';
import { useQueued } from '../pending-store';
import '../offline.css';

export const OFFLINE_TITLE = 'You are offline';
export const NOTHING_SAVED = 'Nothing is saved on this device yet. Posts you bookmark, and posts you open while signed in, are kept here to read without a connection.';

function pendingText(count: number): string {
  return `${count} ${count === 1 ? 'action waits' : 'actions wait'} to be sent (likes, bookmarks, comments). They will be sent when you are back online.`;
}

/** Why a post is kept: a bookmark, or when it was last opened. */
function reason(post: SavedPost): string {
  if (post.bookmarked) return 'Bookmarked';
  return post.openedAt ? `Opened ${formatDate(new Date(post.openedAt).toISOString())}` : 'Saved';
}

/**
 * What a page shows when Pressroom cannot be reached and the page is not one saved on this
 * device: that, and the posts that can be read now (titles linking to them), bookmarks first.
 */
export function OfflineScreen({ saved, postMissing }: { saved: SavedPost[]; postMissing: boolean }) {
  const waiting = useQueued().filter((e) => e.kind !== 'comment' || !e.error).length;
  return (
    <Page title={OFFLINE_TITLE}>
      <div className="offline-screen" data-testid="offline-screen">
        <p>
          Pressroom cannot be reached right now.{postMissing ? ' This post is not saved on this device.' : ''} This page comes back by itself when the
          connection does.
        </p>
        {waiting > 0 ? (
          <p className="notice--info" role="status">
            {pendingText(waiting)}
          </p>
        ) : null}
        <h2 id="offline-saved-title">Saved on this device</h2>
        {saved.length === 0 ? (
          <p className="muted">{NOTHING_SAVED}</p>
        ) : (
          <ul className="offline-list" aria-labelledby="offline-saved-title">
            {saved.map((post) => (
              <li key={post.slug} className="offline-list__item">
                <Link to={`/post/${encodeURIComponent(post.slug)}`} className="offline-list__title">
                  {post.title}
                </Link>
                <span className="muted small">
                  {post.authorName ? `${post.authorName} · ` : ''}
                  {reason(post)}
                </span>
                {post.excerpt ? <span className="offline-list__excerpt">{post.excerpt}</span> : null}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Page>
  );
}
