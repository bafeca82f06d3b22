import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { Page } from '@/components/page';
import { selectOnlineCount } from '@/features/socket';
import { fetchOnlineUsers, selectOnlineUsers } from '../users-slice';

export default function OnlineUsersPage() {
  const dispatch = useAppDispatch();
  const liveCount = useAppSelector(selectOnlineCount);
  const { users, guests, status, error } = useAppSelector(selectOnlineUsers);

  useEffect(() => {
    void dispatch(fetchOnlineUsers());
  }, [dispatch, liveCount]);

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
