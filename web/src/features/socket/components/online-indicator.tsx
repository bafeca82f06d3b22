import { Link } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { selectOnlineCount, selectSocketStatus } from '../socket-slice';

/** Links to /users; pulsing green with 1 or more online, grey otherwise. */
export function OnlineIndicator() {
  const count = useAppSelector(selectOnlineCount);
  const status = useAppSelector(selectSocketStatus);
  const active = count >= 1;
  return (
    <Link
      to="/users"
      className={`online-indicator ${active ? 'online-indicator--active' : ''}`}
      data-testid="online-indicator"
      data-socket-status={status}
      aria-label={`${count} online`}
    >
      <span className={`online-dot ${active ? 'online-dot--pulse' : ''}`} aria-hidden="true" />
      <span data-testid="online-count">{count}</span> <span>online</span>
    </Link>
  );
}
