/**
 * `/user`: the signed-in user's own profile summary and activity (newest first), with Clear all
 * and Clear older than 30 days (seed 000 §4: a clear-old success keeps the last 30 days, a
 * clear-all success empties it), and links to the studio.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { Page } from '@/components/page';
import { formatDate, relativeTime } from '@/lib/format';
import { safeHref } from '@/lib/safe-url';
import { toast } from '@/lib/toast';
import { ACTIVITY_RETENTION_DAYS, clearActivity, clearOldActivity, fetchActivity, selectActivity, selectProfile } from '../users-slice';

const ACTIVITY_LABELS: Record<string, string> = {
  like: 'Like',
  bookmark: 'Bookmark',
  comment: 'Comment',
  reply: 'Reply',
  reaction: 'Reaction',
  vote: 'Vote',
  share: 'Share',
  follow: 'Follow',
  unfollow: 'Unfollow',
  block: 'Block',
  unblock: 'Unblock',
};

export default function ProfilePage() {
  const dispatch = useAppDispatch();
  const me = useAppSelector((state) => state.auth.user);
  const profile = useAppSelector(selectProfile);
  const activity = useAppSelector(selectActivity);
  const activityStatus = useAppSelector((state) => state.users.activityStatus);
  const error = useAppSelector((state) => state.users.error);
  const [confirmAll, setConfirmAll] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (me) void dispatch(fetchActivity(me._id));
  }, [dispatch, me?._id]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!me) return null;
  const website = safeHref(profile?.website);

  const clearAll = async () => {
    setConfirmAll(false);
    setBusy(true);
    const result = await dispatch(clearActivity());
    setBusy(false);
    if (clearActivity.fulfilled.match(result)) toast.success('Your activity was cleared.');
  };
  const clearOld = async () => {
    setBusy(true);
    const result = await dispatch(clearOldActivity());
    setBusy(false);
    if (clearOldActivity.fulfilled.match(result)) toast.success(`Activity older than ${ACTIVITY_RETENTION_DAYS} days was cleared.`);
  };

  return (
    <Page title="Your profile" wide>
      <section className="own-profile panel" aria-label="Profile summary">
        <Avatar name={profile?.name ?? me.name} src={profile?.avatar} size={72} />
        <div className="own-profile__body">
          <h2 className="own-profile__name">{profile?.name ?? me.name}</h2>
          <dl className="details">
            <dt>Email</dt>
            <dd>{profile?.email ?? me.email}</dd>
            <dt>Role</dt>
            <dd>{me.role}</dd>
            {profile?.region ? (
              <>
                <dt>Region</dt>
                <dd>{profile.region}</dd>
              </>
            ) : null}
            {website ? (
              <>
                <dt>Website</dt>
                <dd>
                  <a href={website} target="_blank" rel="noopener noreferrer nofollow">
                    {profile?.website}
                  </a>
                </dd>
              </>
            ) : null}
            {profile?.createdAt ? (
              <>
                <dt>Joined</dt>
                <dd>{formatDate(profile.createdAt)}</dd>
              </>
            ) : null}
            <dt>Posts</dt>
            <dd>{profile?.totalPosts ?? 0}</dd>
          </dl>
          {profile?.bio ? <p>{profile.bio}</p> : null}
        </div>
        <nav className="own-profile__links" aria-label="Your studio">
          <Link to={`/author-profile/${me._id}`} className="button button--small">
            Open your studio
          </Link>
          <Link to={`/author-profile/${me._id}?tab=analytics`} className="button button--small button--ghost">
            Analytics
          </Link>
          <Link to={`/author-profile/${me._id}?tab=map`} className="button button--small button--ghost">
            Follower map
          </Link>
          <Link to={`/author-profile/${me._id}?tab=categories`} className="button button--small button--ghost">
            Manage categories
          </Link>
          <Link to="/user-setting" className="button button--small button--ghost">
            Settings
          </Link>
        </nav>
      </section>

      <section aria-labelledby="activity-title" className="panel">
        <div className="section-head">
          <h2 id="activity-title" className="section-title">
            Your activity
          </h2>
          <div className="form-actions form-actions--start">
            <button type="button" className="button button--small button--ghost" disabled={busy || activity.length === 0} onClick={() => void clearOld()}>
              Clear older than {ACTIVITY_RETENTION_DAYS} days
            </button>
            <button type="button" className="button button--small button--danger" disabled={busy || activity.length === 0} onClick={() => setConfirmAll(true)}>
              Clear all
            </button>
          </div>
        </div>
        {confirmAll ? (
          <div className="confirm-panel" role="group" aria-label="Clear all activity?">
            <p>Clear all of your activity? This cannot be undone.</p>
            <div className="form-actions form-actions--start">
              <button type="button" className="button button--small button--danger" onClick={() => void clearAll()}>
                Clear all
              </button>
              <button type="button" className="button button--small button--ghost" onClick={() => setConfirmAll(false)}>
                Cancel
              </button>
            </div>
          </div>
        ) : null}
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        {activityStatus === 'loading' && activity.length === 0 ? (
          <p className="muted" role="status">
            Loading...
          </p>
        ) : null}
        {activityStatus === 'succeeded' && activity.length === 0 ? <p className="feed-state muted">No activity yet. Likes, comments, follows and the like show here.</p> : null}
        {activity.length > 0 ? (
          <ol className="activity-list" data-testid="activity">
            {activity.map((a) => (
              <li key={a._id} className="activity-list__item">
                <span className={`activity-kind activity-kind--${a.type}`}>{ACTIVITY_LABELS[a.type] ?? a.type}</span>
                <span className="activity-list__details">{a.details}</span>
                <time className="muted small" dateTime={a.createdAt} title={formatDate(a.createdAt)}>
                  {relativeTime(a.createdAt)}
                </time>
              </li>
            ))}
          </ol>
        ) : null}
      </section>
    </Page>
  );
}
