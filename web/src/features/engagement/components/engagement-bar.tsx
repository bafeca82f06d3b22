import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { BookmarkIcon, CommentIcon, EyeIcon, HeartIcon, ShareIcon } from '@/components/icons';
import { PendingNote, queueToggle, useQueuedToggles } from '@/features/offline';
import { compactCount } from '@/lib/format';
import { toast } from '@/lib/toast';
import type { Post } from '@/types/entities';
import { emptyInteraction, fetchInteractionStatus, selectInteraction, selectViews, sharePost, toggleBookmark, toggleLike } from '../interactions-slice';

export const LINK_COPIED = 'Link copied to the clipboard.';

/** Shares with the Web Share API where there is one, else copies the address. */
async function shareAddress(title: string, url: string): Promise<boolean> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, url });
      return true;
    } catch (e) {
      // The reader closed the share sheet.
      if (e instanceof DOMException && e.name === 'AbortError') return false;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    toast.success(LINK_COPIED);
    return true;
  } catch {
    toast.error('Could not copy the link.');
    return false;
  }
}

/** A count as it will be once a queued wish (`want`) reaches the server that counted `on`. */
function countWith(count: number, on: boolean, want: boolean | undefined): number {
  return want === undefined || want === on ? count : Math.max(0, count + (want ? 1 : -1));
}

/** Names what waits in the offline queue: "Like", "Bookmark", "Like and bookmark". */
function waitingWhat(like: boolean, bookmark: boolean): string | null {
  return like && bookmark ? 'Like and bookmark' : like ? 'Like' : bookmark ? 'Bookmark' : null;
}

/**
 * Like, bookmark and share with their counts, views and comments. Guests see the counts and a
 * prompt to log in instead of the buttons (bookmark-status is not asked for them). A like or
 * bookmark made while the server could not be reached shows as wanted, marked pending until it
 * is sent (features/offline); pressed again meanwhile, the newer wish replaces it in the queue.
 */
export function EngagementBar({ post, commentCount }: { post: Post; commentCount: number }) {
  const dispatch = useAppDispatch();
  const location = useLocation();
  const isAuthenticated = useAppSelector((state) => state.auth.isAuthenticated);
  const userId = useAppSelector((state) => state.auth.user?._id);
  const interaction = useAppSelector((state) => selectInteraction(state, post._id)) ?? emptyInteraction(post);
  const views = useAppSelector((state) => selectViews(state, post.slug)) ?? post.views ?? 0;
  const { shares, pending } = interaction;
  const queued = useQueuedToggles(post._id);
  const likes = { liked: queued.like ?? interaction.likes.liked, likesCount: countWith(interaction.likes.likesCount, interaction.likes.liked, queued.like) };
  const bookmarks = {
    bookmarked: queued.bookmark ?? interaction.bookmarks.bookmarked,
    bookmarksCount: countWith(interaction.bookmarks.bookmarksCount, interaction.bookmarks.bookmarked, queued.bookmark),
  };
  const waiting = waitingWhat(queued.like !== undefined, queued.bookmark !== undefined);
  const noteId = `engage-pending-${post._id}`;

  useEffect(() => {
    if (isAuthenticated) void dispatch(fetchInteractionStatus(post._id));
  }, [dispatch, isAuthenticated, post._id]);

  // Once what waited is sent, the server's state is read again.
  const wasWaiting = useRef(false);
  useEffect(() => {
    if (wasWaiting.current && !waiting && isAuthenticated) void dispatch(fetchInteractionStatus(post._id));
    wasWaiting.current = Boolean(waiting);
  }, [dispatch, isAuthenticated, post._id, waiting]);

  const like = () => {
    if (queued.like !== undefined && userId) void queueToggle('like', post._id, !likes.liked, userId);
    else void dispatch(toggleLike({ postId: post._id }));
  };
  const bookmark = () => {
    if (queued.bookmark !== undefined && userId) void queueToggle('bookmark', post._id, !bookmarks.bookmarked, userId);
    else void dispatch(toggleBookmark({ postId: post._id, post }));
  };

  const share = async () => {
    const url = `${window.location.origin}/post/${encodeURIComponent(post.slug)}`;
    if (await shareAddress(post.title, url)) void dispatch(sharePost({ postId: post._id }));
  };

  return (
    <div className="engagement-bar" role="group" aria-label="Reactions to this post">
      {isAuthenticated ? (
        <>
          <button
            type="button"
            className={`engage ${likes.liked ? 'engage--on' : ''} ${queued.like !== undefined ? 'engage--queued' : ''}`}
            aria-pressed={likes.liked}
            aria-describedby={queued.like !== undefined ? noteId : undefined}
            disabled={pending.like}
            onClick={like}
          >
            <HeartIcon filled={likes.liked} />
            <span>{likes.liked ? 'Liked' : 'Like'}</span>
            <span className="engage__count" data-testid="likes-count">
              {compactCount(likes.likesCount)}
            </span>
          </button>
          <button
            type="button"
            className={`engage ${bookmarks.bookmarked ? 'engage--on' : ''} ${queued.bookmark !== undefined ? 'engage--queued' : ''}`}
            aria-pressed={bookmarks.bookmarked}
            aria-describedby={queued.bookmark !== undefined ? noteId : undefined}
            disabled={pending.bookmark}
            onClick={bookmark}
          >
            <BookmarkIcon filled={bookmarks.bookmarked} />
            <span>{bookmarks.bookmarked ? 'Bookmarked' : 'Bookmark'}</span>
            <span className="engage__count" data-testid="bookmarks-count">
              {compactCount(bookmarks.bookmarksCount)}
            </span>
          </button>
        </>
      ) : (
        <>
          <span className="engage engage--static" data-testid="likes-count">
            <HeartIcon /> {compactCount(likes.likesCount)}
            <span className="visually-hidden"> likes</span>
          </span>
          <span className="engage engage--static" data-testid="bookmarks-count">
            <BookmarkIcon /> {compactCount(bookmarks.bookmarksCount)}
            <span className="visually-hidden"> bookmarks</span>
          </span>
        </>
      )}
      <span className="engage engage--static">
        <CommentIcon /> {compactCount(commentCount)}
        <span className="visually-hidden"> comments</span>
      </span>
      <span className="engage engage--static" data-testid="views-count">
        <EyeIcon /> {compactCount(views)}
        <span className="visually-hidden"> views</span>
      </span>
      <button type="button" className="engage" onClick={() => void share()}>
        <ShareIcon />
        <span>Share</span>
        <span className="engage__count">{compactCount(shares.shareCount)}</span>
      </button>
      {isAuthenticated ? (
        <p className="engage__pending" role="status">
          {waiting ? <PendingNote id={noteId} what={waiting} /> : null}
        </p>
      ) : null}
      {!isAuthenticated ? (
        <p className="engage__prompt">
          <Link to="/login" state={{ from: location.pathname }}>
            Log in
          </Link>{' '}
          to like, bookmark and comment.
        </p>
      ) : null}
    </div>
  );
}
