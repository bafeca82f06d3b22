/**
 * The editor's revision history, in a dialog: the post's revisions (newest first), comparing any
 * two (by default the chosen one with the current version), and restoring one after a
 * confirmation; the list then shows the new "Restored" revision.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Modal } from '@/components/modal';
import { formatDateTime } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import type { Post } from '@/types/entities';
import { reasonLabel, revisionName } from '../revision-labels';
import '../revisions.css';
import type { RevisionSummary } from '../revision-types';
import { REVISIONS_LIST, revisionsApi, useGetPostRevisionsQuery, usePostPostRevisionRestoreMutation } from '../revisions-api';
import { RevisionCompare } from './revision-compare';
import { currentId, RevisionList } from './revision-list';

export const RESTORE_QUESTION = 'Restore this revision? The post will be updated to it; the current version stays in the history.';
export const UNSAVED_WARNING = 'Your unsaved changes in the editor will be replaced.';

interface RestoreProps {
  postId: string;
  revision: RevisionSummary;
  unsavedChanges: boolean;
  /** The post as restored and the new revision's id (nothing when the question was cancelled). */
  onDone: (post: Post | null, revisionId: string | null) => void;
}

/** Asks before restoring `revision`; restores it. */
export function RestoreDialog({ postId, revision, unsavedChanges, onDone }: RestoreProps) {
  const dispatch = useAppDispatch();
  const [restore, { isLoading }] = usePostPostRevisionRestoreMutation();
  const [error, setError] = useState<string | null>(null);
  const go = async () => {
    setError(null);
    try {
      const answer = await restore({ id: postId, revisionId: revision.id }).unwrap();
      const added = answer.revision;
      if (added) {
        // Shown at once; the list is read again after.
        dispatch(
          revisionsApi.util.updateQueryData(REVISIONS_LIST, { id: postId }, (draft) => {
            for (const r of draft.revisions) r.current = false;
            if (!draft.revisions.some((r) => r.id === added.id)) draft.revisions.unshift({ ...added, current: true });
          }),
        );
      }
      toast.success(answer.message || 'Revision restored');
      onDone(answer.post, added?.id ?? null);
    } catch (e) {
      setError(errorMessage(e, 'Could not restore this revision'));
    }
  };
  return (
    <ConfirmDialog title="Restore this revision?" confirmLabel="Restore" busy={isLoading} onConfirm={() => void go()} onCancel={() => onDone(null, null)}>
      <p>The post will be updated to it; the current version stays in the history.</p>
      <p className="muted small">
        {reasonLabel(revision.reason)}
        {revision.by?.name ? ` by ${revision.by.name}` : ''}, {formatDateTime(revision.createdAt)}: “{revision.title}”
      </p>
      {unsavedChanges ? <p className="notice notice--warning">{UNSAVED_WARNING}</p> : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}

/** Two versions to compare: revision ids, or `current`. */
export interface ComparePair {
  from: string;
  to: string;
}

function ComparePicker({ revisions, onCompare }: { revisions: RevisionSummary[]; onCompare: (pair: ComparePair) => void }) {
  const uid = useId();
  const now = currentId(revisions);
  const older = revisions.find((r) => r.id !== now && !r.current) ?? revisions[revisions.length - 1];
  const [from, setFrom] = useState(older?.id ?? '');
  const [to, setTo] = useState('current');
  // A revision restored meanwhile: the choices stay among those listed.
  const fromValue = revisions.some((r) => r.id === from) ? from : (older?.id ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onCompare({ from: fromValue, to });
  };
  return (
    <form className="revision-picker" onSubmit={submit} aria-label="Compare two versions">
      <div className="field">
        <label htmlFor={`${uid}-from`}>Compare</label>
        <select id={`${uid}-from`} value={fromValue} onChange={(e) => setFrom(e.target.value)}>
          {revisions.map((r) => (
            <option key={r.id} value={r.id}>
              {revisionName(r)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${uid}-to`}>with</label>
        <select id={`${uid}-to`} value={to} onChange={(e) => setTo(e.target.value)}>
          <option value="current">The current version</option>
          {revisions.map((r) => (
            <option key={r.id} value={r.id}>
              {revisionName(r)}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button button--small" disabled={!fromValue || fromValue === to}>
        Compare
      </button>
    </form>
  );
}

interface HistoryProps {
  postId: string;
  /** Whether the editor holds changes not saved yet (restoring replaces them). */
  unsavedChanges: boolean;
  /** The post as restored: the editor shows it. */
  onRestored: (post: Post) => void;
  onClose: () => void;
}

/** The "Revision history" dialog of the editor. */
export function RevisionHistoryDialog({ postId, unsavedChanges, onRestored, onClose }: HistoryProps) {
  const { data, error, isFetching, refetch } = useGetPostRevisionsQuery({ id: postId });
  const [pair, setPair] = useState<ComparePair | null>(null);
  const [restoring, setRestoring] = useState<RevisionSummary | null>(null);
  /** A restore done in this dialog, with the new revision's id when the server named it. */
  const [restored, setRestored] = useState<{ id: string | null } | null>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);
  const compareHeading = useRef<HTMLHeadingElement>(null);
  const revisions = data?.revisions;

  // Focus follows the view: the comparison's heading when it opens, the list's when it comes back.
  const [moves, setMoves] = useState(0);
  useEffect(() => {
    if (moves === 0) return;
    (pair ? compareHeading : listHeading).current?.focus();
  }, [moves, pair]);
  const show = (next: ComparePair | null) => {
    setPair(next);
    setMoves((n) => n + 1);
  };

  const finishRestore = (post: Post | null, revisionId: string | null) => {
    setRestoring(null);
    if (!post) return;
    onRestored(post);
    setRestored({ id: revisionId });
    show(null);
    void refetch();
  };

  let list;
  if (error && !revisions) {
    list = (
      <p className="form-error" role="alert">
        {errorMessage(error, 'Could not load the revisions')}{' '}
        <button type="button" className="link-button" onClick={() => void refetch()}>
          Try again
        </button>
      </p>
    );
  } else if (!revisions) {
    list = (
      <p className="muted" role="status">
        Loading the revisions...
      </p>
    );
  } else if (revisions.length === 0) {
    list = <p className="muted">No revisions yet. A revision is kept each time the post is saved.</p>;
  } else {
    list = (
      <>
        {revisions.length > 1 ? <ComparePicker revisions={revisions} onCompare={show} /> : null}
        <RevisionList revisions={revisions} highlight={restored?.id} onCompare={(r) => show({ from: r.id, to: 'current' })} onRestore={setRestoring} />
        <p className="muted small">The newest {data?.limit ?? 25} revisions are kept, with every published version and those kept as evidence.</p>
      </>
    );
  }

  const fromRevision = pair ? revisions?.find((r) => r.id === pair.from && !r.current) : undefined;
  return (
    <Modal title="Revision history" labelledBy="revision-history-title" onClose={onClose} className="modal--wide revision-dialog">
      {pair ? (
        <div className="revision-view">
          <div className="revision-view__bar">
            <button type="button" className="button button--small button--ghost" onClick={() => show(null)}>
              ← Back to the history
            </button>
            {fromRevision && fromRevision.id !== currentId(revisions ?? []) ? (
              <button type="button" className="button button--small" onClick={() => setRestoring(fromRevision)}>
                Restore the version of {formatDateTime(fromRevision.createdAt)}
              </button>
            ) : null}
          </div>
          <h3 className="revision-view__title" ref={compareHeading} tabIndex={-1}>
            Changes
          </h3>
          <RevisionCompare postId={postId} from={pair.from} to={pair.to} />
        </div>
      ) : (
        <div className="revision-view" aria-busy={isFetching}>
          <h3 className="visually-hidden" ref={listHeading} tabIndex={-1}>
            Revisions
          </h3>
          {restored !== null ? (
            <p className="notice notice--info" role="status">
              Revision restored. The editor now shows it; it is the newest entry below.
            </p>
          ) : null}
          {list}
        </div>
      )}
      {restoring ? <RestoreDialog postId={postId} revision={restoring} unsavedChanges={unsavedChanges} onDone={finishRestore} /> : null}
    </Modal>
  );
}
