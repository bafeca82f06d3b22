import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Page } from '@/components/page';
import { MIN_SEARCH_LENGTH, searchPosts, selectSearch } from '../search-slice';

export default function SearchPage() {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const query = (params.get('query') ?? '').trim();
  const { results: stored } = useAppSelector(selectSearch);
  // Results belong to one query: those of another (an earlier search) are never shown for this one.
  const valid = query.length >= MIN_SEARCH_LENGTH;
  const results =
    valid && stored.query === query ? stored : { ...stored, posts: [], total: 0, error: null, status: valid ? ('loading' as const) : ('idle' as const) };
  const isAuthenticated = useAppSelector((state) => state.auth.isAuthenticated);
  const authInitialized = useAppSelector((state) => state.auth.authInitialized);

  useEffect(() => {
    if (authInitialized && query.length >= MIN_SEARCH_LENGTH) void dispatch(searchPosts({ query, page: 1 }));
  }, [dispatch, query, authInitialized, isAuthenticated]);

  return (
    <Page title={query ? `Results for “${query}”` : 'Search'}>
      {query.length < MIN_SEARCH_LENGTH ? <p className="muted">Type at least 3 characters to search.</p> : null}
      {results.status === 'failed' ? <p className="form-error" role="alert">Error: {results.error}</p> : null}
      {results.status === 'loading' && results.posts.length === 0 ? <p>Loading...</p> : null}
      {results.status === 'succeeded' && results.posts.length === 0 ? <p className="muted">No results found</p> : null}
      <ul className="post-list">
        {results.posts.map((p) => (
          <li key={p._id} className="post-card">
            <Link to={`/post/${p.slug}`} className="post-card__title">
              {p.title}
            </Link>
          </li>
        ))}
      </ul>
      {results.posts.length > 0 && results.posts.length < results.total ? (
        <button
          type="button"
          className="button button--ghost"
          disabled={results.status === 'loading'}
          onClick={() => void dispatch(searchPosts({ query, page: results.page + 1 }))}
        >
          Load more
        </button>
      ) : null}
    </Page>
  );
}
