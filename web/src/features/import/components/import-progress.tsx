/**
 * An import while the server works on it (reading the export, then importing): a progress bar
 * (`role="progressbar"`, with its values once the total is known), what it is doing in a polite
 * status, and Cancel.
 */
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { FormError } from '@/components/form-field';
import { cancelImport, selectImports } from '../import-slice';
import { PHASE_TEXT } from '../import-sources';
import type { ImportProgress, ImportItem } from '../import-types';

/** What the import is doing, in words ("Writing the posts: 10 of 40"). */
export function progressText(item: Pick<ImportItem, 'status' | 'progress'>): string {
  const p = item.progress;
  if (!p || (p.phase === 'parsing' && !p.total)) return item.status === 'parsing' ? 'Reading your export...' : 'Starting the import...';
  const phase = PHASE_TEXT[p.phase];
  return p.total ? `${phase}: ${p.done} of ${p.total}` : `${phase}...`;
}

/** A bar; without a known total it has no value (indeterminate). */
export function ProgressBar({ progress, label }: { progress: ImportProgress | null; label: string }) {
  const total = progress?.total ?? 0;
  const known = total > 0;
  const done = known ? Math.min(progress?.done ?? 0, total) : 0;
  return (
    <div
      className={`import-progress${known ? '' : ' import-progress--indeterminate'}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={known ? 0 : undefined}
      aria-valuemax={known ? total : undefined}
      aria-valuenow={known ? done : undefined}
      aria-valuetext={known ? `${done} of ${total}` : undefined}
      data-testid="import-progress"
    >
      <div className="import-progress__bar" style={known ? { width: `${(done / total) * 100}%` } : undefined} />
    </div>
  );
}

export function ImportRunning({ item }: { item: ImportItem }) {
  const dispatch = useAppDispatch();
  const { pending, requestError } = useAppSelector(selectImports);
  const label = item.status === 'parsing' ? 'Reading the export' : 'Importing';
  return (
    <div className="import-running">
      <ProgressBar progress={item.progress} label={label} />
      <p className="import-running__text" role="status" aria-live="polite">
        {progressText(item)}
      </p>
      {item.status === 'parsing' ? (
        <p className="muted small">Nothing is imported yet: you will see what the export holds first.</p>
      ) : (
        <p className="muted small">You can leave this page: the import goes on, and shows here again when you come back in this tab.</p>
      )}
      <FormError message={requestError} />
      <div className="form-actions form-actions--start">
        <button type="button" className="button button--ghost" disabled={pending !== null} onClick={() => void dispatch(cancelImport())}>
          {pending === 'cancelling' ? (
            'Cancelling...'
          ) : (
            <>
              Cancel<span className="visually-hidden"> the import</span>
            </>
          )}
        </button>
      </div>
    </div>
  );
}
