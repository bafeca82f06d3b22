import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { fetchFollowList, FollowButton } from '@/features/follows';

/**
 * A user's followers or the people they follow, 12 at a time with Load more as the API pages
 * them; the signed-in user's own lists when `own` (so following from elsewhere shows here).
 */
export function PeopleList({ which, userId, own, name, refreshKey }: { which: 'followers' | 'following'; userId: string; own: boolean; name: string; refreshKey?: number }) {
  const dispatch = useAppDispatch();
  const list = useAppSelector((state) => state.follows[which]);
  const listUser = own ? undefined : userId;
  const mine = list.userId === (listUser ?? null);

  useEffect(() => {
    void dispatch(fetchFollowList({ which, userId: listUser }));
  }, [dispatch, which, listUser, refreshKey]);

  const more = () => void dispatch(fetchFollowList({ which, userId: listUser, page: list.page + 1 }));
  const empty = which === 'followers' ? (own ? 'No one follows you yet.' : `No one follows ${name} yet.`) : own ? 'You do not follow anyone yet.' : `${name} does not follow anyone yet.`;

  return (
    <section aria-label={which === 'followers' ? 'Followers' : 'Following'} aria-busy={list.status === 'loading'}>
      {mine && list.status === 'succeeded' ? (
        <p className="muted small" data-testid="people-count">
          {list.count} {which === 'followers' ? (list.count === 1 ? 'follower' : 'followers') : 'followed'}
          {list.list.length < list.count ? ` · showing ${list.list.length}` : ''}
        </p>
      ) : null}
      {list.status === 'failed' && mine ? (
        <div className="feed-state feed-state--error" role="alert">
          <span>{list.error}</span>
          <button type="button" className="button button--small button--ghost" onClick={() => void dispatch(fetchFollowList({ which, userId: listUser }))}>
            Try again
          </button>
        </div>
      ) : null}
      {mine && list.status === 'succeeded' && list.list.length === 0 ? <p className="feed-state muted">{empty}</p> : null}
      {mine && list.list.length > 0 ? (
        <ul className="people-list">
          {list.list.map((p) => (
            <li key={p._id} className="people-list__item" data-testid="person">
              <Avatar name={p.name} src={p.avatar} size={40} />
              <Link to={`/author-profile/${p._id}`} className="people-list__name">
                {p.name}
              </Link>
              <FollowButton person={p} />
            </li>
          ))}
        </ul>
      ) : null}
      {!mine || list.status === 'loading' ? (
        <p className="muted" role="status">
          Loading...
        </p>
      ) : null}
      {mine && list.status === 'succeeded' && list.page < list.totalPages ? (
        <div className="feed-more">
          <button type="button" className="button button--ghost" onClick={more}>
            Load more
          </button>
        </div>
      ) : null}
    </section>
  );
}
