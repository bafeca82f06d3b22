/**
 * A revision on its own (what a reader reported, for example) and the changes since it, each in
 * a dialog: used by the administrators' reports and appeals.
 */
import { useId } from 'react';
import { Modal } from '@/components/modal';
import { errorMessage } from '@/lib/http';
import { safeHref } from '@/lib/safe-url';
import { AUDIENCE_LABELS, reasonLabel, whenLabel } from '../revision-labels';
import '../revisions.css';
import type { RevisionDetail } from '../revision-types';
import { useGetPostRevisionQuery } from '../revisions-api';
import { BlockPreview } from './block-preview';
import { RevisionCompare } from './revision-compare';

function RevisionContent({ revision }: { revision: RevisionDetail }) {
  const uid = useId();
  const thumb = revision.thumbnail ? (revision.thumbnail.startsWith('/media/') ? revision.thumbnail : safeHref(revision.thumbnail)) : null;
  return (
    <article className="revision-content" aria-labelledby={`${uid}-title`}>
      <p className="muted small">
        {reasonLabel(revision.reason)}
        {revision.by?.name ? ` by ${revision.by.name}` : ''} · {whenLabel(revision.createdAt)}
      </p>
      <h3 id={`${uid}-title`} className="revision-content__title">
        {revision.title}
      </h3>
      <dl className="revision-fields revision-fields--compact">
        <div className="revision-fields__row">
          <dt>Visibility</dt>
          <dd>{revision.visibility}</dd>
        </div>
        <div className="revision-fields__row">
          <dt>Who can read it</dt>
          <dd>{AUDIENCE_LABELS[revision.audience] ?? revision.audience}</dd>
        </div>
        {revision.tags.length > 0 ? (
          <div className="revision-fields__row">
            <dt>Tags</dt>
            <dd>{revision.tags.map((t) => `#${t}`).join(', ')}</dd>
          </div>
        ) : null}
      </dl>
      {thumb ? <img className="revision-content__thumb" src={thumb} alt="Thumbnail" /> : null}
      <div className="revision-content__blocks">
        {revision.blocks.length === 0 ? <p className="muted">This version has no content.</p> : revision.blocks.map((b, i) => <BlockPreview key={`${b.id}-${i}`} block={b} />)}
      </div>
    </article>
  );
}

/** One revision of a post as it was saved. */
export function RevisionContentView({ postId, revisionId }: { postId: string; revisionId: string }) {
  const { data, error, refetch } = useGetPostRevisionQuery({ id: postId, revisionId });
  if (error && !data) {
    return (
      <p className="form-error" role="alert">
        {errorMessage(error, 'Could not load this version')}{' '}
        <button type="button" className="link-button" onClick={() => void refetch()}>
          Try again
        </button>
      </p>
    );
  }
  if (!data) {
    return (
      <p className="muted" role="status">
        Loading this version...
      </p>
    );
  }
  return <RevisionContent revision={data.revision} />;
}

/** One pinned version (what a reader reported, what an author appealed), in a dialog. */
export function RevisionDialog({ postId, revisionId, title, onClose }: { postId: string; revisionId: string; title: string; onClose: () => void }) {
  const uid = useId();
  return (
    <Modal title={title} labelledBy={`revision-${uid}`} onClose={onClose} className="modal--wide revision-dialog">
      <RevisionContentView postId={postId} revisionId={revisionId} />
    </Modal>
  );
}

/** What changed from one version to another (`current`: the post now), in a dialog. */
export function CompareDialog({
  postId,
  from,
  to,
  title,
  fromLabel,
  onClose,
}: {
  postId: string;
  from: string;
  to: string;
  title: string;
  fromLabel?: string;
  onClose: () => void;
}) {
  const uid = useId();
  return (
    <Modal title={title} labelledBy={`compare-${uid}`} onClose={onClose} className="modal--wide revision-dialog">
      <RevisionCompare postId={postId} from={from} to={to} fromLabel={fromLabel} />
    </Modal>
  );
}
