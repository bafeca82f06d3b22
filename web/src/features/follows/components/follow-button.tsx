import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { toast } from '@/lib/toast';
import { fetchFollowStatus, followStatusKnown, followUser, selectFollowStatus, unfollowUser, type FollowPerson } from '../follows-slice';

/**
 * Follow / Unfollow for a signed-in reader; nothing for guests or for oneself. `isFollowing`: what
 * the page already knows (a profile says it), so no status call is needed to start with.
 */
export function FollowButton({ person, isFollowing }: { person: FollowPerson; isFollowing?: boolean }) {
  const dispatch = useAppDispatch();
  const me = useAppSelector((state) => state.auth.user?._id ?? null);
  const status = useAppSelector((state) => selectFollowStatus(state, person._id));
  const visible = me !== null && me !== person._id;

  // Asked once when nothing said it yet (a profile or a follow list already tells).
  const known = status !== undefined;
  useEffect(() => {
    if (!visible || known) return;
    if (typeof isFollowing === 'boolean') dispatch(followStatusKnown({ userId: person._id, isFollowing }));
    else void dispatch(fetchFollowStatus(person._id));
  }, [dispatch, visible, known, person._id, isFollowing]);

  if (!visible) return null;
  const following = status?.isFollowing ?? false;
  const act = async () => {
    const result = following ? await dispatch(unfollowUser({ userId: person._id })) : await dispatch(followUser({ user: person }));
    if (result.meta.requestStatus === 'rejected') toast.error(typeof result.payload === 'string' ? result.payload : 'Something went wrong');
  };
  return (
    <button
      type="button"
      className={`button button--small ${following ? 'button--ghost' : ''}`}
      aria-pressed={following}
      disabled={status?.pending}
      data-testid="follow-button"
      onClick={() => void act()}
    >
      {following ? 'Unfollow' : 'Follow'}
      <span className="visually-hidden"> {person.name}</span>
    </button>
  );
}
