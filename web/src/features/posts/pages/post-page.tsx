import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Page } from '@/components/page';
import { fetchPost, selectPosts } from '../posts-slice';

/** Displays a post; the block renderer arrives with the post work. */
export default function PostPage() {
  const { slug = '' } = useParams();
  const dispatch = useAppDispatch();
  const authInitialized = useAppSelector((state) => state.auth.authInitialized);
  const { currentPost, currentStatus, error } = useAppSelector(selectPosts);

  useEffect(() => {
    if (authInitialized) void dispatch(fetchPost({ slug }));
  }, [dispatch, slug, authInitialized]);

  if (currentStatus === 'failed') {
    return (
      <Page title="Post">
        <p role="alert">{error}</p>
      </Page>
    );
  }
  if (!currentPost || currentPost.slug !== slug) {
    return (
      <Page title="Post">
        <p>Loading...</p>
      </Page>
    );
  }
  return (
    <Page title={currentPost.title}>
      {currentPost.blocked ? <p className="notice notice--warning">This post has been blocked by an administrator.</p> : null}
      {currentPost.thumbnail ? <img src={currentPost.thumbnail} alt="" className="post__thumb" /> : null}
      <p className="muted">{(currentPost.blocks ?? []).length} content blocks.</p>
    </Page>
  );
}
