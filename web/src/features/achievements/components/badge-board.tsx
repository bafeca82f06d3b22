import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { formatDate } from '@/lib/format';
import { calculateAchievements, fetchAchievements, selectAchievements, type BadgeProgress } from '../achievements-slice';

const METRIC_WORDS: Record<string, [string, string]> = {
  posts: ['post published', 'posts published'],
  likesReceived: ['like received', 'likes received'],
  viewsReceived: ['view', 'views'],
  commentsReceived: ['comment received', 'comments received'],
  commentsWritten: ['comment written', 'comments written'],
  followers: ['follower', 'followers'],
  longestStreak: ['day in a row', 'days in a row'],
};

function words(metric: string, n: number) {
  const [one, many] = METRIC_WORDS[metric] ?? ['', ''];
  return `${n} ${n === 1 ? one : many}`.trim();
}

function BadgeCard({ badge }: { badge: BadgeProgress }) {
  const current = Math.min(badge.current, badge.threshold);
  const id = `badge-${badge.id}`;
  return (
    <li className={`badge-card ${badge.earned ? 'badge-card--earned' : ''}`} data-testid="badge" data-earned={badge.earned}>
      <div className="badge-card__medal" aria-hidden="true">
        {badge.earned ? '★' : '☆'}
      </div>
      <div className="badge-card__body">
        <h3 id={id} className="badge-card__name">
          {badge.name}
        </h3>
        <p className="badge-card__needs">{badge.description}</p>
        <progress className="badge-card__progress" max={badge.threshold} value={current} aria-labelledby={id} />
        <p className="small muted">
          {badge.earned
            ? `Earned${badge.earnedAt ? ` ${formatDate(badge.earnedAt)}` : ''}`
            : `${words(badge.metric, badge.current)} of ${badge.threshold} — ${badge.threshold - current} to go`}
        </p>
      </div>
    </li>
  );
}

/**
 * A user's badges with what each needs and the progress towards it: the signed-in user's own
 * are recalculated on opening, another user's are read.
 */
export function BadgeBoard({ userId, own }: { userId: string; own: boolean }) {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectAchievements);
  const load = () => void dispatch(own ? calculateAchievements({ userId }) : fetchAchievements({ userId }));
  useEffect(load, [dispatch, userId, own]);
  const mine = state.userId === userId;

  if (mine && state.status === 'failed') {
    return (
      <div className="feed-state feed-state--error" role="alert">
        <span>{state.error}</span>
        <button type="button" className="button button--small button--ghost" onClick={load}>
          Try again
        </button>
      </div>
    );
  }
  if (!mine || (state.status === 'loading' && state.progress.length === 0)) {
    return (
      <p className="muted" role="status">
        Loading...
      </p>
    );
  }
  const earned = state.progress.filter((b) => b.earned).length;
  return (
    <section aria-labelledby="badges-title">
      <h2 id="badges-title" className="section-title">
        Achievements <span className="muted small">{earned} of {state.progress.length} earned</span>
      </h2>
      {own && state.newBadges.length > 0 ? (
        <p className="form-status" role="status">
          New: {state.progress.filter((b) => state.newBadges.includes(b.id)).map((b) => b.name).join(', ')}
        </p>
      ) : null}
      <ul className="badge-grid">
        {state.progress.map((b) => (
          <BadgeCard key={b.id} badge={b} />
        ))}
      </ul>
    </section>
  );
}
