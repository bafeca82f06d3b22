/**
 * Settings: the authors the reader follows, each with how they hear of new posts (instant,
 * digest, off), a page at a time.
 */
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Avatar } from '@/components/avatar';
import { errorMessage, http } from '@/lib/http';
import { toast } from '@/lib/toast';
import { ALERT_MODES, isAlertMode, saveAlerts, type AlertMode } from '../alerts';
import { FOLLOW_FALLBACK, FOLLOW_PAGE_SIZE } from '../follows-slice';

interface Followed {
  _id: string;
  name: string;
  avatar?: string | null;
  alerts?: string | null;
}

export function FollowedAuthors() {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ list: Followed[]; totalPages: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState<string | null>(null);

  const load = useCallback(async (p: number) => {
    setError(null);
    try {
      const r = await http.get<{ list?: Followed[]; totalPages?: number }>('/follow/following', FOLLOW_FALLBACK.list, { page: p, limit: FOLLOW_PAGE_SIZE });
      setData({ list: r?.list ?? [], totalPages: Number(r?.totalPages) || 0 });
    } catch (e) {
      setError(errorMessage(e, FOLLOW_FALLBACK.list));
    }
  }, []);
  useEffect(() => {
    void load(page);
  }, [load, page]);

  const change = async (author: Followed, mode: AlertMode) => {
    setSaving(author._id);
    try {
      const saved = await saveAlerts(author._id, mode);
      setData((d) => (d ? { ...d, list: d.list.map((a) => (a._id === author._id ? { ...a, alerts: saved } : a)) } : d));
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
        <button type="button" className="button button--small" onClick={() => void load(page)}>
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
      {data.totalPages > 1 ? (
        <nav className="pager" aria-label="Followed authors pages">
          <button type="button" className="button button--small button--ghost" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            Previous
          </button>
          <span className="muted small">
            Page {page} of {data.totalPages}
          </span>
          <button type="button" className="button button--small button--ghost" disabled={page >= data.totalPages} onClick={() => setPage((p) => p + 1)}>
            Next
          </button>
        </nav>
      ) : null}
    </div>
  );
}
