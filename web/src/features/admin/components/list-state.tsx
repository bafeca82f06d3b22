import type { Status } from '../admin-types';

/**
 * What a list shows instead of its rows: loading, the error (with Try again) or the empty text.
 * Renders nothing when rows are there to show.
 */
export function ListState({
  status,
  error,
  count,
  emptyText,
  onRetry,
  loadingText = 'Loading...',
}: {
  status: Status;
  error: string | null;
  count: number;
  emptyText: string;
  onRetry?: () => void;
  loadingText?: string;
}) {
  if (status === 'failed') {
    return (
      <div className="list-state list-state--error" role="alert">
        <span>{error}</span>
        {onRetry ? (
          <button type="button" className="button button--small button--ghost" onClick={onRetry}>
            Try again
          </button>
        ) : null}
      </div>
    );
  }
  if ((status === 'loading' || status === 'idle') && count === 0) {
    return (
      <p className="list-state muted" role="status">
        {loadingText}
      </p>
    );
  }
  if (count === 0) {
    return (
      <p className="list-state muted" role="status">
        {emptyText}
      </p>
    );
  }
  return null;
}
