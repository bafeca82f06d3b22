import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { selectOnlineCount } from '@/features/socket';
import { compactCount } from '@/lib/format';
import { fetchOverview, fetchSiteAnalytics, selectAdmin } from '../admin-slice';
import { ListState } from '../components/list-state';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The default range: the 30 days up to today. */
export function defaultRange(now = new Date()): { startDate: string; endDate: string } {
  const end = now.toISOString().slice(0, 10);
  const start = new Date(now.getTime() - 29 * DAY_MS).toISOString().slice(0, 10);
  return { startDate: start, endDate: end };
}

/** Seconds as "1 h 5 min", "3 min 20 s". */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const h = Math.floor(m / 60);
  return `${h} h${m % 60 ? ` ${m % 60} min` : ''}`;
}

function Figure({ label, value, to, live }: { label: string; value: number | string; to?: string; live?: boolean }) {
  const body = (
    <>
      <span className="figure__value" aria-live={live ? 'polite' : undefined}>
        {value}
      </span>
      <span className="figure__label">{label}</span>
    </>
  );
  return <li className="figure">{to ? <Link to={to}>{body}</Link> : body}</li>;
}

function Figures() {
  const dispatch = useAppDispatch();
  const { overview } = useAppSelector(selectAdmin);
  const online = useAppSelector(selectOnlineCount);
  const data = overview.data;
  if (!data) {
    return <ListState status={overview.status} error={overview.error} count={0} emptyText="" onRetry={() => void dispatch(fetchOverview())} />;
  }
  return (
    <ul className="figures" aria-label="Today">
      <Figure label="online now" value={online} to="/users" live />
      <Figure label="signups today" value={data.today.signups} to="/admin?section=users" />
      <Figure label="posts today" value={data.today.posts} to="/admin?section=posts" />
      <Figure label="reports today" value={data.today.reports} to="/admin?section=reports" />
      <Figure label="unread contact messages" value={data.unreadContactMessages} to="/admin?section=contact" live />
      <Figure label="open reports" value={data.openReports} to="/admin?section=reports" live />
      <Figure label="appeals waiting" value={data.pendingAppeals} to="/admin?section=appeals" live />
      <Figure label={`users · ${compactCount(data.totals.posts)} posts`} value={compactCount(data.totals.users)} />
    </ul>
  );
}

function Analytics() {
  const dispatch = useAppDispatch();
  const { analytics } = useAppSelector(selectAdmin);
  const [range, setRange] = useState(() => (analytics.range.startDate ? analytics.range : defaultRange()));

  useEffect(() => {
    if (analytics.status === 'idle') void dispatch(fetchSiteAnalytics(range));
  }, [dispatch, analytics.status, range]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void dispatch(fetchSiteAnalytics(range));
  };
  const data = analytics.data;
  const series = (data?.series ?? []).map((d) => ({ ...d, day: d.date.slice(5), minutes: Math.round(d.timeSpent / 60) }));
  return (
    <section aria-labelledby="analytics-title" className="dashboard-block">
      <h3 id="analytics-title">Site analytics</h3>
      <form className="inline-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="analytics-start">From</label>
          <input id="analytics-start" type="date" value={range.startDate} max={range.endDate} onChange={(e) => setRange({ ...range, startDate: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="analytics-end">To</label>
          <input id="analytics-end" type="date" value={range.endDate} min={range.startDate} onChange={(e) => setRange({ ...range, endDate: e.target.value })} />
        </div>
        <button type="submit" className="button button--small" disabled={analytics.status === 'loading'}>
          {analytics.status === 'loading' ? 'Loading...' : 'Show'}
        </button>
      </form>
      {analytics.status === 'failed' ? (
        <ListState status="failed" error={analytics.error} count={0} emptyText="" onRetry={() => void dispatch(fetchSiteAnalytics(range))} />
      ) : !data ? (
        <ListState status={analytics.status} error={null} count={0} emptyText="" />
      ) : (
        <>
          <ul className="figures figures--small" aria-label="Traffic">
            <Figure label="visits" value={compactCount(data.traffic.totalVisits)} />
            <Figure label="reading time" value={duration(data.traffic.totalTimeSpent)} />
            <Figure label="signed-in readers" value={compactCount(data.traffic.uniqueUsersCount)} />
            <Figure label="posts read" value={compactCount(data.traffic.uniquePostsCount)} />
          </ul>
          <div className="chart-grid">
            <figure className="chart" aria-label="Visits per day">
              <figcaption>Visits per day</figcaption>
              <ResponsiveContainer width="100%" height={220}>
                <LineChart data={series} margin={{ top: 8, right: 12, bottom: 0, left: -16 }}>
                  <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                  <XAxis dataKey="day" tick={{ fontSize: 11 }} stroke="var(--muted)" />
                  <YAxis allowDecimals={false} tick={{ fontSize: 11 }} stroke="var(--muted)" />
                  <Tooltip />
                  <Legend />
                  <Line type="monotone" dataKey="views" name="Post views" stroke="#1f4fd1" dot={false} strokeWidth={2} />
                  <Line type="monotone" dataKey="guestVisits" name="Guest visits" stroke="#17803d" dot={false} strokeWidth={2} />
                </LineChart>
              </ResponsiveContainer>
            </figure>
            <figure className="chart" aria-label="Reading time per day in minutes">
              <figcaption>Reading time per day (minutes)</figcaption>
              <ResponsiveContainer width="100%" height={220}>
                <BarChart data={series} margin={{ top: 8, right: 12, bottom: 0, left: -16 }}>
                  <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                  <XAxis dataKey="day" tick={{ fontSize: 11 }} stroke="var(--muted)" />
                  <YAxis allowDecimals={false} tick={{ fontSize: 11 }} stroke="var(--muted)" />
                  <Tooltip />
                  <Bar dataKey="minutes" name="Minutes" fill="#c26b00" />
                </BarChart>
              </ResponsiveContainer>
            </figure>
          </div>
          <div className="chart-grid">
            <div>
              <h4>Top posts</h4>
              {data.topPosts.length === 0 ? (
                <p className="muted">No posts were read in this range.</p>
              ) : (
                <table className="data-table">
                  <thead>
                    <tr>
                      <th scope="col">Post</th>
                      <th scope="col">Views</th>
                      <th scope="col">Reading time</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.topPosts.map((p) => (
                      <tr key={p._id}>
                        <td>{p.slug ? <Link to={`/post/${encodeURIComponent(p.slug)}`}>{p.title}</Link> : p.title}</td>
                        <td>{p.views}</td>
                        <td>{duration(p.timeSpent)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </div>
            <div>
              <h4>Top authors</h4>
              {data.topUsers.length === 0 ? (
                <p className="muted">Nobody’s posts were read in this range.</p>
              ) : (
                <table className="data-table">
                  <thead>
                    <tr>
                      <th scope="col">Author</th>
                      <th scope="col">Views</th>
                      <th scope="col">Reading time</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.topUsers.map((u) => (
                      <tr key={u._id}>
                        <td>
                          <Link to={`/author-profile/${u._id}`}>{u.name}</Link>
                        </td>
                        <td>{u.views}</td>
                        <td>{duration(u.timeSpent)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </div>
          </div>
        </>
      )}
    </section>
  );
}

export function OverviewSection() {
  const dispatch = useAppDispatch();
  useEffect(() => {
    void dispatch(fetchOverview());
  }, [dispatch]);
  return (
    <>
      <Figures />
      <Analytics />
    </>
  );
}
