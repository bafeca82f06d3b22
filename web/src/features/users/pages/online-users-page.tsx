import { useCallback } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { Page } from '@/components/page';
import { useThrottledRefresh } from '@/components/use-throttled-refresh';
import { selectOnlineCount } from '@/features/socket';
import { fetchOnlineUsers, selectOnlineUsers } from '../users-slice';

/** The list is refetched at most this often while the live count changes. */
export const ONLINE_REFRESH_MS = 5000;

export default function OnlineUsersPage() {
  const dispatch = useAppDispatch();
  const liveCount = useAppSelector(selectOnlineCount);
  const { users, guests, status, error } = useAppSelector(selectOnlineUsers);

  const refresh = useCallback(() => void dispatch(fetchOnlineUsers()), [dispatch]);
  useThrottledRefresh(refresh, liveCount, ONLINE_REFRESH_MS);

  return (
    <Page title="Online now">
      <p className="lead">
        <strong data-testid="online-page-count">{liveCount}</strong> online
        {status === 'succeeded' ? ` · ${users.length} signed in, ${guests} ${guests === 1 ? 'guest' : 'guests'}` : ''}
      </p>
      {status === 'loading' && users.length === 0 ? <p>Loading...</p> : null}
      {status === 'failed' ? <p className="muted" role="alert">{error}</p> : null}
      {status === 'succeeded' && users.length === 0 ? <p className="muted">No signed-in users are online right now.</p> : null}
      <ul className="user-list">
        {users.map((u) => (
          <li key={u._id} className="user-list__item">
            <Avatar name={u.name} src={u.avatar} />
            <Link to={`/author-profile/${u._id}`}>{u.name}</Link>
          </li>
        ))}
      </ul>
    </Page>
  );
}
