import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Page } from '@/components/page';
import { fetchPost, selectPosts } from '@/features/posts';
import { PostEditor } from '../components/post-editor';
import { detailsOf } from '../post-draft';

export const NOT_YOUR_POST = 'Only the author of this post or an administrator can edit it.';

/** /edit-post/{slug}: loads the post (author or administrator), saves with PATCH, back to the post. */
export default function EditPostPage() {
  const { slug = '' } = useParams();
  const dispatch = useAppDispatch();
  const { user, role } = useAppSelector((state) => state.auth);
  const { currentPost, currentStatus, error } = useAppSelector(selectPosts);

  useEffect(() => {
    void dispatch(fetchPost({ slug }));
  }, [dispatch, slug]);

  if (currentStatus === 'failed' && currentPost?.slug !== slug) {
    return (
      <Page title="Edit post">
        <p role="alert">{error}</p>
      </Page>
    );
  }
  if (!currentPost || currentPost.slug !== slug || currentStatus === 'loading') {
    return (
      <Page title="Edit post">
        <p role="status">Loading...</p>
      </Page>
    );
  }
  if (currentPost.author?._id !== user?._id && role !== 'admin') {
    return (
      <Page title="Edit post">
        <p role="alert">{NOT_YOUR_POST}</p>
        <Link to={`/post/${encodeURIComponent(slug)}`}>Back to the post</Link>
      </Page>
    );
  }
  return (
    <PostEditor
      key={currentPost._id}
      draftName={`edit:${slug}`}
      slug={slug}
      heading="Edit post"
      initialDetails={detailsOf(currentPost)}
      initialBlocks={currentPost.blocks ?? []}
      serverUpdatedAt={currentPost.updatedAt}
      currentCategory={currentPost.category}
      postId={currentPost._id}
      serverStatus={currentPost.status ?? 'published'}
      ownPost={currentPost.author?._id === user?._id}
    />
  );
}
