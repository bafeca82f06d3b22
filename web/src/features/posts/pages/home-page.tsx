import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Page } from '@/components/page';
import { relativeTime } from '@/lib/format';
import { fetchPublicPosts, selectPosts } from '../posts-slice';

export default function HomePage() {
  const dispatch = useAppDispatch();
  const { publicPosts, publicStatus, publicTotal, publicPage, error } = useAppSelector(selectPosts);

  useEffect(() => {
    void dispatch(fetchPublicPosts({ page: 1 }));
  }, [dispatch]);

  return (
    <Page title="Latest stories" wide>
      {publicStatus === 'loading' && publicPosts.length === 0 ? <p>Loading...</p> : null}
      {publicStatus === 'failed' ? (
        <p className="muted" role="alert">
          {error}
        </p>
      ) : null}
      {publicStatus === 'succeeded' && publicPosts.length === 0 ? <p className="muted">No posts yet. Be the first to write one!</p> : null}
      <ul className="post-grid">
        {publicPosts.map((p) => (
          <li key={p._id} className="post-card">
            {p.thumbnail ? <img src={p.thumbnail} alt="" className="post-card__thumb" loading="lazy" /> : null}
            <Link to={`/post/${p.slug}`} className="post-card__title">
              {p.title}
            </Link>
            <small className="muted">{relativeTime(p.createdAt)}</small>
          </li>
        ))}
      </ul>
      {publicPosts.length > 0 && publicPosts.length < publicTotal ? (
        <button type="button" className="button button--ghost" disabled={publicStatus === 'loading'} onClick={() => void dispatch(fetchPublicPosts({ page: publicPage + 1 }))}>
          Load more
        </button>
      ) : null}
    </Page>
  );
}
