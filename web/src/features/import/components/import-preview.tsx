/**
 * What the export holds before anything is imported: the counts, the warnings, the first posts
 * drawn read-only as they will arrive (the post page's block renderer), the options (keep each
 * post's published state; import or skip the comments, when there are any), and Import / Cancel.
 */
import { useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { PostBlocks } from '@/components/blocks/post-blocks';
import { FormError } from '@/components/form-field';
import { formatDate } from '@/lib/format';
import { cancelImport, confirmImport, selectImports } from '../import-slice';
import { COUNT_LABELS, plural, postsToImport } from '../import-sources';
import type { ImportCounts, ImportSample, ImportItem } from '../import-types';

const SAMPLE_STATUS: Record<ImportSample['status'], string> = {
  published: 'Published',
  draft: 'Draft',
  scheduled: 'Scheduled',
  private: 'Private',
};

/** The counts as a definition list. */
export function ImportCountList({ counts, labelledBy }: { counts: ImportCounts; labelledBy: string }) {
  return (
    <dl className="import-figures" aria-labelledby={labelledBy} data-testid="import-counts">
      {COUNT_LABELS.map(({ key, label }) => (
        <div key={key} className="import-figures__item">
          <dt>{label}</dt>
          <dd>{counts[key]}</dd>
        </div>
      ))}
    </dl>
  );
}

function SamplePost({ sample, index }: { sample: ImportSample; index: number }) {
  const titleId = `import-sample-${index}`;
  const meta = [SAMPLE_STATUS[sample.status] ?? sample.status, sample.kind === 'page' ? 'Page' : null, sample.date ? formatDate(sample.date) : 'No date'];
  return (
    <article className="import-sample" aria-labelledby={titleId} data-testid="import-sample">
      <h5 id={titleId} className="import-sample__title">
        {sample.title || 'Untitled'}
      </h5>
      <p className="muted small import-sample__meta">{meta.filter(Boolean).join(' · ')}</p>
      {sample.blocks.length > 0 ? <PostBlocks blocks={sample.blocks} /> : <p className="muted small">This post has no content.</p>}
    </article>
  );
}

export function ImportPreview({ item }: { item: ImportItem }) {
  const dispatch = useAppDispatch();
  const { pending, requestError } = useAppSelector(selectImports);
  const [keepStatus, setKeepStatus] = useState(false);
  const [comments, setComments] = useState<'import' | 'skip'>('import');
  const total = postsToImport(item.counts);
  const hasComments = item.counts.comments > 0;
  const sample = item.sample;

  const confirm = () => void dispatch(confirmImport(hasComments ? { keepStatus, comments } : { keepStatus }));

  return (
    <div className="import-preview">
      <p className="form-status" role="status">
        The export is read: nothing is imported until you confirm.
      </p>

      <h4 id="import-counts-title" className="import-subtitle">
        What the export holds
      </h4>
      <ImportCountList counts={item.counts} labelledBy="import-counts-title" />

      <h4 id="import-warnings-title" className="import-subtitle">
        Warnings
      </h4>
      {item.warnings.length > 0 ? (
        <ul className="import-warnings" aria-labelledby="import-warnings-title">
          {item.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      ) : (
        <p className="muted small">No warnings.</p>
      )}

      <h4 id="import-samples-title" className="import-subtitle">
        Sample posts
      </h4>
      <section className="import-samples" aria-labelledby="import-samples-title">
        {sample === undefined ? (
          <p className="muted small" role="status">
            Loading the sample posts...
          </p>
        ) : sample.length === 0 ? (
          <p className="muted small">There is no post to show.</p>
        ) : (
          <>
            <p className="muted small">The first {plural(sample.length, 'post')} as {sample.length === 1 ? 'it' : 'they'} will look here.</p>
            {sample.map((s, i) => (
              <SamplePost key={`${s.slug}-${i}`} sample={s} index={i} />
            ))}
          </>
        )}
      </section>

      <fieldset className="checks import-options" disabled={pending !== null}>
        <legend>Options</legend>
        <label className="check">
          <input type="checkbox" checked={keepStatus} onChange={(e) => setKeepStatus(e.target.checked)} /> Keep each post&apos;s published state (otherwise
          everything arrives as a draft)
        </label>
        {hasComments ? (
          <fieldset className="checks import-options__comments">
            <legend>Comments ({item.counts.comments})</legend>
            <label className="check">
              <input type="radio" name="import-comments" value="import" checked={comments === 'import'} onChange={() => setComments('import')} /> Import
            </label>
            <label className="check">
              <input type="radio" name="import-comments" value="skip" checked={comments === 'skip'} onChange={() => setComments('skip')} /> Skip
            </label>
          </fieldset>
        ) : null}
      </fieldset>

      <FormError message={requestError} />
      <div className="form-actions form-actions--start">
        <button type="button" className="button" disabled={pending !== null || total === 0} onClick={confirm}>
          {pending === 'confirming' ? 'Starting...' : `Import ${plural(total, 'post')}`}
        </button>
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
