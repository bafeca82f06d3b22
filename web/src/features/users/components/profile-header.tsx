import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { loadApi } from '@/api/on-demand';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { Modal } from '@/components/modal';
import { compactCount, formatDate } from '@/lib/format';
import { safeHref } from '@/lib/safe-url';
import { toast } from '@/lib/toast';
import type { UserProfile } from '@/types/entities';
import { blockUser, unblockUser } from '@/features/blocks';
import { AuthorAlertsMenu, FollowButton } from '@/features/follows';
import { preloadedHasPlans } from '@/app/initial-data';
import { fetchUserById } from '../users-slice';

/** What blocking does, said before it is done. */
export const BLOCK_EXPLANATION =
  'They will no longer be able to follow you, comment on your posts or react to your comments, and neither of you will see the other’s posts in feeds or comments. Any follows between you are removed (unblocking does not restore them).';

/**
 * Whether the author sells subscriptions now: `/subscription/plans/author/{id}` has active plans.
 * The header is part of the author page's first load: the endpoint loads when it is asked.
 */
function useHasPlans(authorId: string, enabled: boolean) {
  const dispatch = useAppDispatch();
  // What the server's page said; the app asks itself only for an author the page did not draw.
  const [hasPlans, setHasPlans] = useState(() => preloadedHasPlans(authorId) ?? false);
  useEffect(() => {
    // The server's page answered for this author: nothing to ask (nor any code to load for it).
    if (!enabled || preloadedHasPlans(authorId) !== undefined) return;
    let live = true;
    loadApi()
      .then((api) => dispatch(api.endpoints.getSubscriptionPlansAuthorByAuthorId.initiate({ authorId }, { subscribe: false, forceRefetch: true })).unwrap())
      .then((r) => live && setHasPlans((Number(r.count) || r.plans.length || 0) > 0))
      .catch(() => live && setHasPlans(false));
    return () => {
      live = false;
    };
  }, [dispatch, authorId, enabled]);
  return hasPlans;
}

function BlockControl({ user }: { user: UserProfile }) {
  const dispatch = useAppDispatch();
  const pending = useAppSelector((state) => state.blocks.pending.includes(user._id));
  const [confirming, setConfirming] = useState(false);

  const block = async () => {
    setConfirming(false);
    const result = await dispatch(blockUser({ userId: user._id, name: user.name, avatar: user.avatar }));
    if (blockUser.fulfilled.match(result)) {
      toast.success(result.payload);
      void dispatch(fetchUserById(user._id));
    } else toast.error(result.payload ?? 'Block failed');
  };
  const unblock = async () => {
    const result = await dispatch(unblockUser({ userId: user._id }));
    if (unblockUser.fulfilled.match(result)) {
      toast.success(result.payload);
      void dispatch(fetchUserById(user._id));
    } else toast.error(result.payload ?? 'Unblock failed');
  };

  if (user.blockedByYou) {
    return (
      <button type="button" className="button button--small button--ghost" disabled={pending} onClick={() => void unblock()}>
        Unblock<span className="visually-hidden"> {user.name}</span>
      </button>
    );
  }
  return (
    <>
      <button type="button" className="button button--small button--ghost" disabled={pending} onClick={() => setConfirming(true)}>
        Block<span className="visually-hidden"> {user.name}</span>
      </button>
      {confirming ? (
        <Modal title={`Block ${user.name}?`} labelledBy="block-title" onClose={() => setConfirming(false)}>
          <p>{BLOCK_EXPLANATION}</p>
          <div className="form-actions">
            <button type="button" className="button button--ghost" onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button type="button" className="button button--danger" onClick={() => void block()}>
              Block
            </button>
          </div>
        </Modal>
      ) : null}
    </>
  );
}

/**
 * The top of a profile: avatar or initials, name, live online dot, bio, region, website, joined
 * date and counts; Follow/Unfollow, Block/Unblock and Subscribe for others, studio links for the
 * owner.
 */
export function ProfileHeader({ user, own }: { user: UserProfile; own: boolean }) {
  const signedIn = useAppSelector((state) => state.auth.isAuthenticated);
  const hasPlans = useHasPlans(user._id, !own);
  const website = safeHref(user.website);

  return (
    <header className="profile-header" data-testid="profile-header">
      <div className="profile-header__avatar">
        <Avatar name={user.name} src={user.avatar} size={96} />
        <span
          className={`profile-header__dot ${user.isOnline ? 'profile-header__dot--online' : ''}`}
          data-testid="online-dot"
          data-online={user.isOnline ? 'true' : 'false'}
          title={user.isOnline ? 'Online' : 'Offline'}
        />
      </div>
      <div className="profile-header__main">
        <h1 className="profile-header__name">
          {user.name}{' '}
          <span className={`presence ${user.isOnline ? 'presence--online' : ''}`} role="status" data-testid="presence">
            {user.isOnline ? 'Online' : 'Offline'}
          </span>
        </h1>
        {user.bio ? <p className="profile-header__bio">{user.bio}</p> : null}
        <p className="profile-header__facts muted small">
          {user.region ? <span>{user.region}</span> : null}
          {website ? (
            <a href={website} target="_blank" rel="noopener noreferrer nofollow">
              {user.website?.replace(/^https?:\/\//, '')}
            </a>
          ) : null}
          {user.createdAt ? <span>Joined {formatDate(user.createdAt)}</span> : null}
        </p>
        <dl className="profile-counts" aria-label="Counts">
          <div>
            <dt>Followers</dt>
            <dd data-testid="followers-count">{compactCount(user.followersCount)}</dd>
          </div>
          <div>
            <dt>Following</dt>
            <dd data-testid="following-count">{compactCount(user.followingCount)}</dd>
          </div>
          <div>
            <dt>Posts</dt>
            <dd data-testid="posts-count">{compactCount(user.totalPosts)}</dd>
          </div>
        </dl>
        {user.blockedByYou ? (
          <p className="notice--warning small" role="status">
            You blocked {user.name}. Unblock them to follow or see their posts again.
          </p>
        ) : null}
      </div>
      <div className="profile-header__actions">
        {own ? (
          <>
            <Link to="/createPost" className="button button--small">
              Write
            </Link>
            <Link to="/user-setting" className="button button--small button--ghost">
              Edit profile
            </Link>
          </>
        ) : signedIn ? (
          <>
            {user.blockedByYou ? null : <FollowButton person={{ _id: user._id, name: user.name, avatar: user.avatar }} isFollowing={user.isFollowing ?? undefined} />}
            {user.blockedByYou ? null : <AuthorAlertsMenu authorId={user._id} authorName={user.name} />}
            {hasPlans && !user.blockedByYou ? (
              <Link to={`/plans/${user._id}`} className="button button--small">
                Subscribe
              </Link>
            ) : null}
            <BlockControl user={user} />
          </>
        ) : (
          <>
            <Link to="/login" state={{ from: `/author-profile/${user._id}` }} className="button button--small">
              Log in to follow
            </Link>
            {hasPlans ? (
              <Link to={`/plans/${user._id}`} className="button button--small button--ghost">
                Subscribe
              </Link>
            ) : null}
          </>
        )}
      </div>
    </header>
  );
}
