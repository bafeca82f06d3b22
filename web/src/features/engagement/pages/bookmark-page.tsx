import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Page } from '@/components/page';
import { PostFeed } from '@/components/post-feed';
import { fetchBookmarkedPosts, selectBookmarks, toggleBookmark } from '../interactions-slice';

/** The user's bookmarks, most recently bookmarked first, each removable in place. */
export default function BookmarkPage() {
  const dispatch = useAppDispatch();
  const { posts, status, error } = useAppSelector(selectBookmarks);
  const pending = useAppSelector((state) => state.interactions.byPost);

  useEffect(() => {
    void dispatch(fetchBookmarkedPosts());
  }, [dispatch]);

  return (
    <Page title="Bookmarks" wide>
      <PostFeed
        feed={{ items: posts, status, error, hasMore: false }}
        onRetry={() => void dispatch(fetchBookmarkedPosts())}
        label="Bookmarked posts"
        empty="No bookmarks yet. Bookmark a post to read it later."
        actions={(post) => (
          <button
            type="button"
            className="link-button post-card__action"
            disabled={pending[post._id]?.pending.bookmark}
            onClick={() => void dispatch(toggleBookmark({ postId: post._id, post }))}
          >
            Remove<span className="visually-hidden"> “{post.title}” from bookmarks</span>
          </button>
        )}
      />
    </Page>
  );
}
