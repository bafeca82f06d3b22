/**
 * Per-day charts of an engagement series with recharts: views, likes, comments, shares and
 * bookmarks as lines, reading time as bars. Loaded only with the analytics tab.
 */
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { textOf } from '@/lib/format';
import type { DayStats } from '../analytics';

const SERIES = [
  { key: 'views', label: 'Views', color: '#1f4fd1' },
  { key: 'likes', label: 'Likes', color: '#c0262d' },
  { key: 'comments', label: 'Comments', color: '#17803d' },
  { key: 'shares', label: 'Shares', color: '#a15c00' },
  { key: 'bookmarks', label: 'Bookmarks', color: '#7c3aed' },
] as const;

const shortDate = (date: string) => {
  const d = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : d.toLocaleDateString(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
};

export default function EngagementCharts({ daily, label }: { daily: DayStats[]; label: string }) {
  const minutes = daily.map((d) => ({ date: d.date, minutes: Math.round((d.readingTime / 60) * 10) / 10 }));
  return (
    <div className="charts">
      <figure className="chart" aria-label={`${label}: interactions per day`}>
        <figcaption className="chart__title">Interactions per day</figcaption>
        <div className="chart__canvas" data-testid="chart-interactions">
          <ResponsiveContainer width="100%" height={260}>
            <LineChart data={daily} margin={{ top: 8, right: 16, bottom: 0, left: -12 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
              <XAxis dataKey="date" tickFormatter={shortDate} tick={{ fill: 'var(--muted)', fontSize: 12 }} minTickGap={24} />
              <YAxis allowDecimals={false} tick={{ fill: 'var(--muted)', fontSize: 12 }} />
              <Tooltip labelFormatter={(d) => shortDate(textOf(d))} contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)' }} />
              <Legend />
              {SERIES.map((s) => (
                <Line key={s.key} type="monotone" dataKey={s.key} name={s.label} stroke={s.color} strokeWidth={2} dot={false} isAnimationActive={false} />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      </figure>
      <figure className="chart" aria-label={`${label}: reading time per day`}>
        <figcaption className="chart__title">Reading time per day (minutes)</figcaption>
        <div className="chart__canvas" data-testid="chart-reading">
          <ResponsiveContainer width="100%" height={220}>
            <BarChart data={minutes} margin={{ top: 8, right: 16, bottom: 0, left: -12 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
              <XAxis dataKey="date" tickFormatter={shortDate} tick={{ fill: 'var(--muted)', fontSize: 12 }} minTickGap={24} />
              <YAxis tick={{ fill: 'var(--muted)', fontSize: 12 }} />
              <Tooltip labelFormatter={(d) => shortDate(textOf(d))} contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)' }} />
              <Bar dataKey="minutes" name="Minutes read" fill="#1f4fd1" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </figure>
      <table className="visually-hidden">
        <caption>{label} per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {SERIES.map((s) => (
              <th key={s.key} scope="col">
                {s.label}
              </th>
            ))}
            <th scope="col">Reading time (s)</th>
          </tr>
        </thead>
        <tbody>
          {daily.map((d) => (
            <tr key={d.date}>
              <th scope="row">{d.date}</th>
              {SERIES.map((s) => (
                <td key={s.key}>{d[s.key]}</td>
              ))}
              <td>{d.readingTime}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
