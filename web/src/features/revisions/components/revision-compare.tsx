/**
 * The differences between two versions of a post: the title word by word, the settings that
 * changed (tags, category, visibility, audience, cover image), and the content block by block:
 * added, removed, changed (word by word inside a text block) or unchanged (folded away unless
 * asked for). Used by the editor's history and the administrators' reports.
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { fetchCategories, selectCategories } from '@/features/categories';
import { formatDateTime } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { safeHref } from '@/lib/safe-url';
import { AUDIENCE_LABELS, blockLabel, changeLabel, changeSpoken, FIELD_LABELS, reasonLabel } from '../revision-labels';
import '../revisions.css';
import type { BlockDiff, CompareSide, Comparison, FieldDiff } from '../revision-types';
import { useGetPostRevisionsCompareQuery } from '../revisions-api';
import { BlockPreview } from './block-preview';
import { WordDiff } from './word-diff';

/** Blocks whose change is all in their text: their word marks say everything. */
const TEXT_BLOCKS = new Set(['paragraph', 'header', 'quote', 'list', 'checklist', 'code']);

/** "the current version", or "Saved, 12 Mar 2026, 14:05". */
export function sideName(side: CompareSide): string {
  if (side.id === 'current') return 'the current version';
  return side.reason ? `${reasonLabel(side.reason)}, ${formatDateTime(side.createdAt)}` : formatDateTime(side.createdAt);
}

/** Whether the two versions differ in anything shown. */
export function hasChanges(c: Comparison): boolean {
  return c.title.changed || c.fields.length > 0 || c.blocks.some((b) => b.change !== 'unchanged');
}

function CategoryName({ id }: { id: string }) {
  const dispatch = useAppDispatch();
  const { categories } = useAppSelector(selectCategories);
  useEffect(() => {
    void dispatch(fetchCategories());
  }, [dispatch]);
  return <>{categories.find((c) => c._id === id)?.name ?? 'another category'}</>;
}

function FieldValue({ field, value }: { field: string; value: unknown }) {
  if (value === null || value === undefined || value === '') {
    return <em>{field === 'category' ? 'No category' : field === 'thumbnail' ? 'No thumbnail' : 'None'}</em>;
  }
  if (field === 'category' && typeof value === 'string') return <CategoryName id={value} />;
  if (field === 'audience' && typeof value === 'string') return <>{AUDIENCE_LABELS[value] ?? value}</>;
  if (field === 'thumbnail' && typeof value === 'string') {
    const src = value.startsWith('/media/') ? value : safeHref(value);
    return src ? <img className="revision-field__thumb" src={src} alt="Thumbnail" /> : <>A thumbnail</>;
  }
  if (Array.isArray(value)) return <>{value.length > 0 ? value.map((v) => `#${String(v)}`).join(', ') : 'None'}</>;
  return <>{typeof value === 'string' ? value : JSON.stringify(value)}</>;
}

/** Tags: the added ones and the removed ones, each marked. */
function TagsChange({ before, after }: { before: unknown; after: unknown }) {
  const was = Array.isArray(before) ? before.map(String) : [];
  const now = Array.isArray(after) ? after.map(String) : [];
  const added = now.filter((t) => !was.includes(t));
  const removed = was.filter((t) => !now.includes(t));
  return (
    <>
      {added.map((t) => (
        <ins key={`+${t}`} className="word-diff__ins revision-tag">
          <span className="visually-hidden">added tag </span>#{t}
        </ins>
      ))}
      {removed.map((t) => (
        <del key={`-${t}`} className="word-diff__del revision-tag">
          <span className="visually-hidden">removed tag </span>#{t}
        </del>
      ))}
      {added.length === 0 && removed.length === 0 ? <span>Same tags in another order</span> : null}
    </>
  );
}

function FieldsChange({ fields }: { fields: FieldDiff[] }) {
  return (
    <dl className="revision-fields">
      {fields.map((f) => (
        <div key={f.field} className="revision-fields__row" data-field={f.field}>
          <dt>{FIELD_LABELS[f.field] ?? f.field}</dt>
          <dd>
            {f.field === 'tags' ? (
              <TagsChange before={f.before} after={f.after} />
            ) : (
              <>
                <del className="word-diff__del">
                  <span className="visually-hidden">was </span>
                  <FieldValue field={f.field} value={f.before} />
                </del>{' '}
                <span aria-hidden="true">→</span>{' '}
                <ins className="word-diff__ins">
                  <span className="visually-hidden">now </span>
                  <FieldValue field={f.field} value={f.after} />
                </ins>
              </>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

const CHANGE_LABELS: Record<BlockDiff['change'], string> = { added: 'Added', removed: 'Removed', changed: 'Changed', unchanged: 'Unchanged' };

function BlockChange({ diff }: { diff: BlockDiff }) {
  const words = diff.words ?? [];
  const wordsChanged = words.some((w) => w.op !== 'equal');
  const showBoth = diff.change === 'changed' && (!TEXT_BLOCKS.has(diff.type) || !wordsChanged);
  let body;
  if (diff.change === 'added' && diff.after) body = <BlockPreview block={diff.after} />;
  else if (diff.change === 'removed' && diff.before) body = <BlockPreview block={diff.before} />;
  else if (diff.change === 'unchanged' && diff.after) body = <BlockPreview block={diff.after} />;
  else {
    body = (
      <>
        {wordsChanged ? (
          <p className="revision-diff-text">
            <WordDiff words={words} />
          </p>
        ) : null}
        {showBoth ? (
          <div className="revision-before-after">
            {diff.before ? (
              <div className="revision-before-after__side">
                <p className="revision-before-after__label">Before</p>
                <BlockPreview block={diff.before} />
              </div>
            ) : null}
            {diff.after ? (
              <div className="revision-before-after__side">
                <p className="revision-before-after__label">After</p>
                <BlockPreview block={diff.after} />
              </div>
            ) : null}
          </div>
        ) : null}
      </>
    );
  }
  return (
    <li className={`revision-block revision-block--${diff.change}`} data-change={diff.change} data-block-id={diff.id}>
      <p className="revision-block__head">
        <span className={`revision-change revision-change--${diff.change}`}>{CHANGE_LABELS[diff.change]}</span> <span className="muted small">{blockLabel(diff.type)}</span>
      </p>
      <div className="revision-block__body">{body}</div>
    </li>
  );
}

/** Runs of unchanged blocks fold into one line unless `showUnchanged`. */
function BlockList({ blocks, showUnchanged }: { blocks: BlockDiff[]; showUnchanged: boolean }) {
  const items: ReactNode[] = [];
  let run: BlockDiff[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const n = run.length;
    items.push(
      <li key={`same-${run[0].id}`} className="revision-block revision-block--folded muted small" data-change="folded">
        {n === 1 ? '1 block unchanged' : `${n} blocks unchanged`}
      </li>,
    );
    run = [];
  };
  blocks.forEach((b, i) => {
    if (b.change === 'unchanged' && !showUnchanged) {
      run.push(b);
      return;
    }
    flush();
    items.push(<BlockChange key={`${b.id}-${i}`} diff={b} />);
  });
  flush();
  return <ol className="revision-blocks">{items}</ol>;
}

/**
 * The comparison of two versions of a post (revision ids, or `current`); `fromLabel` names the
 * older side for the reader ("the version the reader reported").
 */
export function RevisionCompare({ postId, from, to, fromLabel }: { postId: string; from: string; to: string; fromLabel?: string }) {
  const { data, error, isFetching, refetch } = useGetPostRevisionsCompareQuery({ id: postId, from, to });
  const [showUnchanged, setShowUnchanged] = useState(false);
  const uid = useId();

  if (error && (!data || !isFetching)) {
    return (
      <p className="form-error" role="alert">
        {errorMessage(error, 'Could not compare these versions')}{' '}
        <button type="button" className="link-button" onClick={() => void refetch()}>
          Try again
        </button>
      </p>
    );
  }
  if (!data || (isFetching && (data.from.id !== from || data.to.id !== to))) {
    return (
      <p className="muted" role="status">
        Loading the changes...
      </p>
    );
  }
  const changed = hasChanges(data);
  const hasUnchanged = data.blocks.some((b) => b.change === 'unchanged');
  return (
    <div className="revision-compare" aria-busy={isFetching}>
      <p className="revision-compare__sides">
        From <strong>{fromLabel ? `${fromLabel} (${formatDateTime(data.from.createdAt)})` : sideName(data.from)}</strong> to <strong>{sideName(data.to)}</strong>
      </p>
      {changed ? (
        <p className="revision-compare__summary">
          <span aria-hidden="true">{changeLabel(data.summary)}</span>
          <span className="visually-hidden">{changeSpoken(data.summary)}</span>
        </p>
      ) : (
        <p className="notice notice--info">These two versions are the same.</p>
      )}
      <p className="muted small revision-compare__legend">
        <ins className="word-diff__ins">Added words</ins> are underlined; <del className="word-diff__del">removed words</del> are struck through.
      </p>
      {data.title.changed ? (
        <section className="revision-section" aria-labelledby={`${uid}-title`}>
          <h3 id={`${uid}-title`} className="revision-section__title">
            Title
          </h3>
          <p className="revision-diff-text revision-diff-text--title" data-testid="title-diff">
            <WordDiff words={data.title.words} />
          </p>
        </section>
      ) : null}
      {data.fields.length > 0 ? (
        <section className="revision-section" aria-labelledby={`${uid}-fields`}>
          <h3 id={`${uid}-fields`} className="revision-section__title">
            Settings
          </h3>
          <FieldsChange fields={data.fields} />
        </section>
      ) : null}
      <section className="revision-section" aria-labelledby={`${uid}-blocks`}>
        <div className="revision-section__head">
          <h3 id={`${uid}-blocks`} className="revision-section__title">
            Content
          </h3>
          {hasUnchanged ? (
            <label className="check revision-section__toggle">
              <input type="checkbox" checked={showUnchanged} onChange={(e) => setShowUnchanged(e.target.checked)} /> Show unchanged blocks
            </label>
          ) : null}
        </div>
        {data.blocks.length === 0 ? <p className="muted">Neither version has any content.</p> : <BlockList blocks={data.blocks} showUnchanged={showUnchanged} />}
      </section>
    </div>
  );
}
