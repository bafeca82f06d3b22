import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { PostCard } from '@/components/post-card';
import type { Post } from '@/types/entities';
import { fetchSuggestedPosts, selectSuggested } from '../suggested-slice';

/** "Read next": posts like this one, under the article. */
export function SuggestedPosts({ post }: { post: Post }) {
  const dispatch = useAppDispatch();
  const { posts, status, forPost, error } = useAppSelector(selectSuggested);
  useEffect(() => {
    void dispatch(fetchSuggestedPosts({ postId: post._id, category: post.category?._id ?? null }));
  }, [dispatch, post._id, post.category?._id]);
  if (forPost !== post._id) return null;
  if (status === 'failed') {
    return (
      <p className="muted" role="status">
        {error}
      </p>
    );
  }
  if (posts.length === 0) return null;
  return (
    <section className="suggested" aria-labelledby="suggested-title">
      <h2 id="suggested-title">Read next</h2>
      <ul className="post-grid">
        {posts.map((p) => (
          <li key={p._id}>
            <PostCard post={p} />
          </li>
        ))}
      </ul>
    </section>
  );
}
