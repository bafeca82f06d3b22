/**
 * How an import ended: done (the report, what needs a look — images kept at their old address,
 * addresses changed —, a link to the writer's posts, and "Remove the imported posts" after a
 * confirmation), failed (the server's reason, as an alert) or cancelled (with what
 * was created before, if anything). "Import something else" goes back to the form.
 */
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { FormError } from '@/components/form-field';
import { Modal } from '@/components/modal';
import { dismissImport, removeImportedPosts, selectImports } from '../import-slice';
import { plural, REPORT_LABELS } from '../import-sources';
import type { ImportReport, ImportItem } from '../import-types';

export function ImportReportList({ report }: { report: ImportReport }) {
  return (
    <dl className="import-figures" aria-label="What the import did" data-testid="import-report">
      {REPORT_LABELS.map(({ key, label }) => (
        <div key={key} className="import-figures__item">
          <dt>{label}</dt>
          <dd>{report[key]}</dd>
        </div>
      ))}
    </dl>
  );
}

function RemoveDialog({ created, onClose }: { created: number; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const { pending, requestError } = useAppSelector(selectImports);
  const remove = async () => {
    const result = await dispatch(removeImportedPosts());
    if (removeImportedPosts.fulfilled.match(result)) onClose();
  };
  return (
    <Modal title="Remove the imported posts?" labelledBy="import-remove-title" onClose={onClose}>
      <p>
        The {plural(created, 'post')} this import created {created === 1 ? 'is' : 'are'} deleted, with whatever readers did with them since. Posts you
        wrote here yourself stay. This cannot be undone.
      </p>
      <FormError message={requestError} />
      <div className="form-actions">
        <button type="button" className="button button--ghost" onClick={onClose}>
          Keep them
        </button>
        <button type="button" className="button button--danger" disabled={pending !== null} onClick={() => void remove()}>
          {pending === 'removing' ? 'Removing...' : 'Remove the posts'}
        </button>
      </div>
    </Modal>
  );
}

export function ImportOutcome({ item, userId }: { item: ImportItem; userId: string | null }) {
  const dispatch = useAppDispatch();
  const { removed } = useAppSelector(selectImports);
  const [confirming, setConfirming] = useState(false);
  const created = item.report?.created ?? 0;
  const removedRef = useRef<HTMLParagraphElement>(null);

  // The button that opened the dialog is gone once the posts are: focus goes to what says so.
  useEffect(() => {
    if (removed !== null) removedRef.current?.focus();
  }, [removed]);

  let summary;
  if (item.status === 'failed') {
    summary = (
      <p className="form-error" role="alert">
        The import failed: {item.error ?? 'the export could not be read.'}
      </p>
    );
  } else if (item.status === 'cancelled') {
    summary = (
      <p className="import-outcome__text" role="status">
        The import was cancelled{created > 0 ? `, after ${plural(created, 'post')} had been created.` : ': nothing was imported.'}
      </p>
    );
  } else {
    summary = (
      <p className="form-status" role="status">
        The import is done: {plural(created, 'post')} created.
      </p>
    );
  }

  return (
    <div className="import-outcome">
      {summary}
      {item.report && item.status !== 'failed' ? <ImportReportList report={item.report} /> : null}
      {item.status !== 'failed' && item.warnings.length > 0 ? (
        <details className="import-outcome__warnings" data-testid="import-outcome-warnings">
          <summary>What needs a look ({item.warnings.length})</summary>
          <ul className="import-warnings">
            {item.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </details>
      ) : null}
      {removed !== null ? (
        <p ref={removedRef} tabIndex={-1} className="form-status" role="status">
          {plural(removed, 'imported post')} removed.
        </p>
      ) : null}
      <div className="form-actions form-actions--start import-outcome__actions">
        {created > 0 && userId ? (
          <Link to={`/author-profile/${userId}`} className="button button--small">
            See your posts
          </Link>
        ) : null}
        {created > 0 && removed === null ? (
          <button type="button" className="button button--small button--ghost" onClick={() => setConfirming(true)}>
            Remove the imported posts
          </button>
        ) : null}
        <button type="button" className="button button--small button--ghost" onClick={() => void dispatch(dismissImport())}>
          Import something else
        </button>
      </div>
      {confirming ? <RemoveDialog created={created} onClose={() => setConfirming(false)} /> : null}
    </div>
  );
}
