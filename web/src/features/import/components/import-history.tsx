/**
 * The writer's earlier imports (`GET /api/import`, newest first): where from, the file or the
 * address, when, how it stands and how many posts it created. Imports heard of live change here
 * too.
 */
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { formatDateTime } from '@/lib/format';
import { fetchImports, selectImports } from '../import-slice';
import { plural, sourceName, STATUS_TEXT } from '../import-sources';

export function ImportHistory() {
  const dispatch = useAppDispatch();
  const { history } = useAppSelector(selectImports);
  const { items, status, error } = history;

  useEffect(() => {
    void dispatch(fetchImports());
  }, [dispatch]);

  if (status === 'failed' && items.length === 0) {
    return (
      <p className="form-error" role="alert">
        {error}{' '}
        <button type="button" className="link-button" onClick={() => void dispatch(fetchImports())}>
          Try again
        </button>
      </p>
    );
  }
  if ((status === 'idle' || status === 'loading') && items.length === 0) {
    return (
      <p className="muted small" role="status">
        Loading your imports...
      </p>
    );
  }
  if (items.length === 0) return <p className="muted small">You have not imported anything yet.</p>;
  return (
    <ul className="session-list import-history" aria-label="Your imports">
      {items.map((item) => (
        <li key={item.id} className="session-item import-history__item" data-import-status={item.status}>
          <div className="import-history__body">
            <strong>{sourceName(item.source)}</strong> <span className="import-history__what">{item.fileName ?? item.url ?? ''}</span>
            <p className="muted small">
              {formatDateTime(item.createdAt)}
              {` · ${plural(item.report?.created ?? 0, 'post')} created`}
            </p>
          </div>
          <span className={`badge-inline import-status import-status--${item.status}`}>{STATUS_TEXT[item.status]}</span>
        </li>
      ))}
    </ul>
  );
}
