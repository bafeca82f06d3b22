/**
 * Settings: the authors the reader follows, each with how they hear of new posts (instant,
 * digest, off), a page at a time.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api, useGetFollowFollowingQuery, type FollowEntry } from '@/api/endpoints';
import { useAppDispatch } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { ALERT_MODES, isAlertMode, saveAlerts, type AlertMode } from '../alerts';
import { FOLLOW_FALLBACK, FOLLOW_PAGE_SIZE } from '../follows-slice';
import { Pager } from '../../../components/pager';

export function FollowedAuthors() {
  const dispatch = useAppDispatch();
  const [page, setPage] = useState(1);
  const arg = { page: String(page), limit: String(FOLLOW_PAGE_SIZE) };
  const { data: answer, error: loadError, refetch } = useGetFollowFollowingQuery(arg);
  const data = answer ? { list: answer.list ?? [], totalPages: Number(answer.totalPages) || 0 } : null;
  const error = loadError ? errorMessage(loadError, FOLLOW_FALLBACK.list) : null;
  const [saving, setSaving] = useState<string | null>(null);

  const change = async (author: FollowEntry, mode: AlertMode) => {
    setSaving(author._id);
    try {
      const saved = await saveAlerts(author._id, mode);
      dispatch(
        api.util.updateQueryData('getFollowFollowing', arg, (draft) => {
          for (const a of draft.list) if (a._id === author._id) a.alerts = saved;
        }),
      );
      toast.success(`Alerts from ${author.name} saved.`);
    } catch (e) {
      toast.error(e instanceof Error ? e.message : 'Failed to change alerts');
    } finally {
      setSaving(null);
    }
  };

  if (error) {
    return (
      <div>
        <p role="alert" className="form-error">
          {error}
        </p>
        <button type="button" className="button button--small" onClick={() => void refetch()}>
          Try again
        </button>
      </div>
    );
  }
  if (!data) return <p role="status">Loading...</p>;
  if (data.list.length === 0) return <p className="muted">You do not follow anyone yet. Follow authors to hear of their new posts.</p>;
  return (
    <div>
      <p className="muted small">
        How you hear of each author&apos;s new posts: <strong>All new posts</strong> (a notification and an email at once), <strong>Daily digest</strong> (a
        notification now, the email in the daily digest) or <strong>Off</strong>.
      </p>
      <ul className="followed-authors" data-testid="followed-authors">
        {data.list.map((a) => {
          const mode = isAlertMode(a.alerts) ? a.alerts : 'instant';
          const id = `alerts-${a._id}`;
          return (
            <li key={a._id} className="followed-authors__item">
              <Link to={`/author-profile/${a._id}`} className="followed-authors__who">
                <Avatar name={a.name} src={a.avatar ?? undefined} size={32} />
                <span>{a.name}</span>
              </Link>
              <label htmlFor={id} className="visually-hidden">
                New posts from {a.name}
              </label>
              <select id={id} value={mode} disabled={saving === a._id} onChange={(e) => void change(a, e.target.value as AlertMode)}>
                {ALERT_MODES.map((m) => (
                  <option key={m.mode} value={m.mode}>
                    {m.label}
                  </option>
                ))}
              </select>
            </li>
          );
        })}
      </ul>
      <Pager page={page} totalPages={data.totalPages} onPage={setPage} label="Followed authors" />
    </div>
  );
}
