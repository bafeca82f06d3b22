import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { BookmarkIcon, CommentIcon, EyeIcon, HeartIcon, ShareIcon } from '@/components/icons';
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

/**
 * Like, bookmark and share with their counts, views and comments. Guests see the counts and a
 * prompt to log in instead of the buttons (bookmark-status is not asked for them).
 */
export function EngagementBar({ post, commentCount }: { post: Post; commentCount: number }) {
  const dispatch = useAppDispatch();
  const location = useLocation();
  const isAuthenticated = useAppSelector((state) => state.auth.isAuthenticated);
  const interaction = useAppSelector((state) => selectInteraction(state, post._id)) ?? emptyInteraction(post);
  const views = useAppSelector((state) => selectViews(state, post.slug)) ?? post.views ?? 0;
  const { likes, bookmarks, shares, pending } = interaction;

  useEffect(() => {
    if (isAuthenticated) void dispatch(fetchInteractionStatus(post._id));
  }, [dispatch, isAuthenticated, post._id]);

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
            className={`engage ${likes.liked ? 'engage--on' : ''}`}
            aria-pressed={likes.liked}
            disabled={pending.like}
            onClick={() => void dispatch(toggleLike({ postId: post._id }))}
          >
            <HeartIcon filled={likes.liked} />
            <span>{likes.liked ? 'Liked' : 'Like'}</span>
            <span className="engage__count" data-testid="likes-count">
              {compactCount(likes.likesCount)}
            </span>
          </button>
          <button
            type="button"
            className={`engage ${bookmarks.bookmarked ? 'engage--on' : ''}`}
            aria-pressed={bookmarks.bookmarked}
            disabled={pending.bookmark}
            onClick={() => void dispatch(toggleBookmark({ postId: post._id, post }))}
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
