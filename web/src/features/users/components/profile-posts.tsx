import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { PostFeed } from '@/components/post-feed';
import { formatDate } from '@/lib/format';
import type { Post } from '@/types/entities';
import { usePostList, type SortOption } from '@/features/posts';

/** Search waits this long after the last keystroke (seed 000 §9). */
export const PROFILE_SEARCH_DEBOUNCE_MS = 400;

const SORTS: { value: SortOption; label: string }[] = [
  { value: 'newest', label: 'Newest' },
  { value: 'oldest', label: 'Oldest' },
  { value: 'popular', label: 'Popular' },
];

/**
 * An author's posts with search, sort (newest, oldest, popular) and cursor paging; the author also
 * sees their drafts and scheduled posts, each marked with its status, with Edit and Stats.
 */
export function ProfilePosts({ userId, own, name, statsLink }: { userId: string; own: boolean; name: string; statsLink: (post: Post) => string }) {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortOption>('newest');
  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), PROFILE_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const { feed, loadMore, retry } = usePostList('userPosts', { userId, query: query || undefined, sort });

  const actions = own
    ? (post: Post) => (
        <span className="post-card__owner">
          {post.status === 'scheduled' && post.publishAt ? <span className="muted small">Publishes {formatDate(post.publishAt)}</span> : null}
          <Link to={`/edit-post/${encodeURIComponent(post.slug)}`} className="post-card__action">
            Edit<span className="visually-hidden"> {post.title}</span>
          </Link>
          <Link to={statsLink(post)} className="post-card__action">
            Stats<span className="visually-hidden"> of {post.title}</span>
          </Link>
        </span>
      )
    : undefined;

  return (
    <section aria-label={own ? 'Your posts' : `Posts by ${name}`}>
      <div className="toolbar profile-posts__toolbar" role="search">
        <label htmlFor="profile-search" className="visually-hidden">
          Search {own ? 'your' : `${name}’s`} posts
        </label>
        <input
          id="profile-search"
          type="search"
          placeholder={own ? 'Search your posts' : `Search ${name}’s posts`}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <label htmlFor="profile-sort" className="small">
          Sort
        </label>
        <select id="profile-sort" value={sort} onChange={(e) => setSort(e.target.value as SortOption)}>
          {SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
        {feed.status === 'succeeded' ? (
          <span className="muted small" data-testid="posts-total">
            {feed.total} {feed.total === 1 ? 'post' : 'posts'}
          </span>
        ) : null}
      </div>
      <PostFeed
        feed={feed}
        onLoadMore={loadMore}
        onRetry={retry}
        label={own ? 'Your posts' : `Posts by ${name}`}
        empty={query ? `No posts match “${query}”.` : own ? 'You have not written a post yet.' : `${name} has not published a post yet.`}
        actions={actions}
      />
    </section>
  );
}
