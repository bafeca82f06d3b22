import { useEffect } from 'react';
import { useGetAchievementAchievementsQuery, usePostAchievementAchievementsCalculateMutation } from '@/api/endpoints';
import { formatDate } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { ACHIEVEMENT_FALLBACK, type BadgeProgress } from '../achievements';

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
  const read = useGetAchievementAchievementsQuery({ userId }, { skip: own });
  const [calculate, calculated] = usePostAchievementAchievementsCalculateMutation();
  useEffect(() => {
    if (own) void calculate();
  }, [calculate, userId, own]);
  const load = () => void (own ? calculate() : read.refetch());
  const data = own ? calculated.data : read.currentData;
  // The badges the last calculation earned (only a calculation says).
  const newBadges = own ? (calculated.data?.newBadges ?? []) : [];
  const failed = own ? calculated.isError : read.isError;

  if (failed) {
    const error = errorMessage(own ? calculated.error : read.error, own ? ACHIEVEMENT_FALLBACK.calculate : ACHIEVEMENT_FALLBACK.fetch);
    return (
      <div className="feed-state feed-state--error" role="alert">
        <span>{error}</span>
        <button type="button" className="button button--small button--ghost" onClick={load}>
          Try again
        </button>
      </div>
    );
  }
  if (!data) {
    return (
      <p className="muted" role="status">
        Loading...
      </p>
    );
  }
  const progress = data.progress ?? [];
  const earned = progress.filter((b) => b.earned).length;
  return (
    <section aria-labelledby="badges-title">
      <h2 id="badges-title" className="section-title">
        Achievements <span className="muted small">{earned} of {progress.length} earned</span>
      </h2>
      {own && newBadges.length > 0 ? (
        <p className="form-status" role="status">
          New: {progress.filter((b) => newBadges.includes(b.id)).map((b) => b.name).join(', ')}
        </p>
      ) : null}
      <ul className="badge-grid">
        {progress.map((b) => (
          <BadgeCard key={b.id} badge={b} />
        ))}
      </ul>
    </section>
  );
}
