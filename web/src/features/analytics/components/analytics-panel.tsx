import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { useGetPostAnalyticsPostByIdQuery, useGetPostAnalyticsUserEngagementQuery } from '@/api/endpoints';
import { compactCount } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { ANALYTICS_DAYS, ANALYTICS_FALLBACK, type DayStats } from '../analytics';
import { DeliveryFigures } from './delivery-figures';

// recharts is large: it loads with the first chart shown.
const EngagementCharts = lazy(() => import('./engagement-charts'));

function seconds(total: number): string {
  if (!total) return '0 s';
  if (total < 60) return `${total} s`;
  const minutes = Math.round(total / 60);
  return minutes < 60 ? `${minutes} min` : `${(minutes / 60).toFixed(1)} h`;
}

function Totals({ items }: { items: [string, string][] }) {
  return (
    <dl className="stat-grid" data-testid="analytics-totals">
      {items.map(([label, value]) => (
        <div key={label} className="stat">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Charts({ daily, label }: { daily: DayStats[]; label: string }) {
  return (
    <Suspense fallback={<p className="muted" role="status">Loading charts...</p>}>
      <EngagementCharts daily={daily} label={label} />
    </Suspense>
  );
}

function Failure({ message, onRetry }: { message: string | null; onRetry: () => void }) {
  return (
    <div className="feed-state feed-state--error" role="alert">
      <span>{message}</span>
      <button type="button" className="button button--small button--ghost" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

/** An author's engagement over the last 30 days (`userId` for an administrator looking at someone else). */
export function EngagementPanel({ userId, postLink }: { userId?: string; postLink: (postId: string) => string }) {
  const { currentData: data, error, isError, refetch } = useGetPostAnalyticsUserEngagementQuery({ days: String(ANALYTICS_DAYS), userId });

  if (isError) return <Failure message={errorMessage(error, ANALYTICS_FALLBACK.user)} onRetry={() => void refetch()} />;
  if (!data) return <p className="muted" role="status">Loading...</p>;
  return (
    <section aria-labelledby="engagement-title" className="analytics">
      <h2 id="engagement-title" className="section-title">
        Engagement
      </h2>
      <p className="muted small">Totals of all the posts; the charts show the last 30 days.</p>
      <Totals
        items={[
          ['Posts', compactCount(data.posts)],
          ['Views', compactCount(data.views)],
          ['Likes', compactCount(data.likes)],
          ['Comments', compactCount(data.comments)],
          ['Shares', compactCount(data.shares)],
          ['Bookmarks', compactCount(data.bookmarks)],
          ['Reading time', seconds(data.totalReadingTime)],
          ['Average read', seconds(data.averageReadingTime)],
          ['Followers', compactCount(data.followers)],
          ['Engagement rate', `${(data.engagementRate * 100).toFixed(1)}%`],
        ]}
      />
      <Charts daily={data.daily ?? []} label="Engagement" />
      <h3 className="section-title">Most viewed posts</h3>
      {data.topPosts.length === 0 ? (
        <p className="muted">No posts yet.</p>
      ) : (
        <ol className="top-posts">
          {data.topPosts.map((p) => (
            <li key={p._id}>
              <Link to={postLink(p._id)}>{p.title}</Link>{' '}
              <span className="muted small">
                {compactCount(p.views)} views · {compactCount(p.likes)} likes · {compactCount(p.comments)} comments
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** One post's numbers and per-day charts. */
export function PostStatsPanel({ postId, backLink }: { postId: string; backLink: string }) {
  const { currentData: data, error, isError, refetch } = useGetPostAnalyticsPostByIdQuery({ id: postId, days: String(ANALYTICS_DAYS) });

  const back = (
    <Link to={backLink} className="small">
      ← All analytics
    </Link>
  );
  if (isError) {
    return (
      <>
        {back}
        <Failure message={errorMessage(error, ANALYTICS_FALLBACK.post)} onRetry={() => void refetch()} />
      </>
    );
  }
  if (!data) return <p className="muted" role="status">Loading...</p>;
  return (
    <section aria-labelledby="post-stats-title" className="analytics">
      {back}
      <h2 id="post-stats-title" className="section-title">
        <Link to={`/post/${encodeURIComponent(data.slug)}`}>{data.title}</Link>
      </h2>
      <Totals
        items={[
          ['Views', compactCount(data.views)],
          ['Likes', compactCount(data.likes)],
          ['Comments', compactCount(data.comments)],
          ['Shares', compactCount(data.shares)],
          ['Bookmarks', compactCount(data.bookmarks)],
          ['Readers', compactCount(data.readers)],
          ['Reading time', seconds(data.totalReadingTime)],
          ['Average read', seconds(data.averageReadingTime)],
        ]}
      />
      <DeliveryFigures postId={postId} />
      <Charts daily={data.daily ?? []} label={data.title} />
    </section>
  );
}
