/** The revisions of a post, newest first: when, who, why, how much changed, and their badges. */
import { formatDateTime, relativeTime } from '@/lib/format';
import { changeLabel, changeSpoken, reasonLabel } from '../revision-labels';
import type { RevisionSummary } from '../revision-types';

interface RevisionListProps {
  revisions: RevisionSummary[];
  onCompare: (revision: RevisionSummary) => void;
  onRestore: (revision: RevisionSummary) => void;
  /** The revision last restored (marked until the list is left). */
  highlight?: string | null;
}

/** The id of the newest revision that holds the post as it is now (several may: a restore). */
export function currentId(revisions: RevisionSummary[]): string | null {
  return revisions.find((r) => r.current)?.id ?? null;
}

export function RevisionRow({
  revision,
  isCurrent,
  highlighted,
  onCompare,
  onRestore,
}: {
  revision: RevisionSummary;
  /** The newest revision equal to the post now: nothing to compare with or restore. */
  isCurrent: boolean;
  highlighted: boolean;
  onCompare: () => void;
  onRestore: () => void;
}) {
  const when = formatDateTime(revision.createdAt);
  const reason = reasonLabel(revision.reason);
  const equalsNow = isCurrent || revision.current;
  return (
    <li className={`revision-item ${highlighted ? 'revision-item--new' : ''}`} data-revision-id={revision.id} data-reason={revision.reason}>
      <div className="revision-item__body">
        <p className="revision-item__line">
          <strong className="revision-item__reason">{reason}</strong>
          <span className="muted">
            {' · '}
            {revision.by?.name ?? 'Automatic'}
            {' · '}
            <time dateTime={revision.createdAt} title={when}>
              {relativeTime(revision.createdAt)}
            </time>
          </span>
        </p>
        <p className="muted small revision-item__change">
          <span aria-hidden="true">{changeLabel(revision.change)}</span>
          <span className="visually-hidden">{changeSpoken(revision.change)}</span>
        </p>
        {isCurrent || revision.pinned || (revision.published && revision.reason !== 'published') ? (
          <p className="revision-item__badges">
            {isCurrent ? <span className="chip chip--ok">Current version</span> : null}
            {revision.published && revision.reason !== 'published' ? <span className="chip chip--info">Published</span> : null}
            {revision.pinned ? (
              <span className="chip chip--danger" title="Kept because of a report, an appeal or a block: it is never deleted.">
                Kept as evidence
              </span>
            ) : null}
          </p>
        ) : null}
      </div>
      <div className="revision-item__actions">
        {equalsNow ? null : (
          <>
            <button
              type="button"
              className="button button--small button--ghost"
              aria-label={`Compare ${reason.toLowerCase()}, ${when}, with the current version`}
              onClick={onCompare}
            >
              Compare
            </button>
            <button type="button" className="button button--small button--ghost" aria-label={`Restore ${reason.toLowerCase()}, ${when}`} onClick={onRestore}>
              Restore
            </button>
          </>
        )}
      </div>
    </li>
  );
}

export function RevisionList({ revisions, onCompare, onRestore, highlight }: RevisionListProps) {
  const current = currentId(revisions);
  return (
    <ol className="revision-list" aria-label="Revisions, newest first">
      {revisions.map((r) => (
        <RevisionRow key={r.id} revision={r} isCurrent={r.id === current} highlighted={r.id === highlight} onCompare={() => onCompare(r)} onRestore={() => onRestore(r)} />
      ))}
    </ol>
  );
}
