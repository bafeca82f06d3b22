import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { Page } from '@/components/page';
import { PostFeed } from '@/components/post-feed';
import { usePostList } from '@/features/posts';
import { MIN_SEARCH_LENGTH, runSearch, selectSearch } from '../search-slice';

/** Full search results: matching users first (as in the dropdown), then posts page by page. */
export default function SearchPage() {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const query = (params.get('query') ?? '').trim();
  const valid = query.length >= MIN_SEARCH_LENGTH;
  const authInitialized = useAppSelector((state) => state.auth.authInitialized);
  const search = useAppSelector(selectSearch);
  const { feed, loadMore, retry } = usePostList('searchPosts', { query }, { enabled: valid });
  // Users belong to one query: those of another search are never shown for this one.
  const users = valid && search.query === query && search.status === 'succeeded' ? search.users : [];

  useEffect(() => {
    if (authInitialized && valid) void dispatch(runSearch(query));
  }, [dispatch, query, valid, authInitialized]);

  return (
    <Page title={query ? `Results for “${query}”` : 'Search'} wide>
      {!valid ? <p className="muted">Type at least 3 characters to search.</p> : null}
      {users.length > 0 ? (
        <section aria-label="People" className="search-people">
          <h2 className="section-title">People</h2>
          <ul className="user-list">
            {users.map((u) => (
              <li key={u._id} className="user-list__item">
                <Avatar name={u.name} src={u.avatar} size={40} />
                <div>
                  <Link to={`/author-profile/${u._id}`}>{u.name}</Link>
                  <div className="muted small">
                    {u.email ? `${u.email} · ` : ''}Posts: {u.totalPosts ?? 0}
                  </div>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {valid ? (
        <>
          <h2 className="section-title">Posts</h2>
          <PostFeed feed={feed} onLoadMore={loadMore} onRetry={retry} label="Matching posts" empty="No results found" />
        </>
      ) : null}
    </Page>
  );
}
