import { useState } from 'react';
import { CompareDialog, RevisionDialog } from '@/features/revisions';

/** The words of each kind of evidence. */
const TEXTS = {
  report: {
    lead: 'Reported version:',
    view: 'View what the reader saw',
    edited: 'Edited since the report',
    deleted: 'Post deleted since the report',
    version: (title: string) => `Reported version of “${title}”`,
    from: 'the version the reader reported',
    changes: (title: string) => `Changes since the report on “${title}”`,
  },
  appeal: {
    lead: 'Appealed version:',
    view: 'View what the author appealed',
    edited: 'Edited since the appeal',
    deleted: 'Post deleted since the appeal',
    version: (title: string) => `Appealed version of “${title}”`,
    from: 'the version the author appealed',
    changes: (title: string) => `Changes since the appeal on “${title}”`,
  },
} as const;

interface Props {
  kind: keyof typeof TEXTS;
  postId: string;
  postTitle: string;
  /** The pinned revision (nothing is shown without one). */
  revisionId?: string | null;
  /** The post's content changed after the report or appeal. */
  editedSince?: boolean;
  /** The post was deleted since (its pinned revision is kept). */
  postDeleted?: boolean;
}

/**
 * The version of a post a report or an appeal is about (its pinned revision) and, when the post
 * changed since (`editedSince`), the changes from it to the post as it is now.
 */
export function PinnedVersion({ kind, postId, postTitle, revisionId, editedSince, postDeleted }: Props) {
  const [open, setOpen] = useState<'version' | 'changes' | null>(null);
  if (!revisionId) return null;
  const texts = TEXTS[kind];
  return (
    <div className="report-version">
      <span className="muted small">{texts.lead}</span>{' '}
      <button type="button" className="link-button" aria-haspopup="dialog" onClick={() => setOpen('version')}>
        {texts.view}
      </button>
      {postDeleted ? (
        <>
          {' '}
          <span className="chip chip--danger">{texts.deleted}</span>
        </>
      ) : null}
      {editedSince ? (
        <>
          {' '}
          <span className="chip chip--danger">{texts.edited}</span>{' '}
          <button type="button" className="button button--small button--ghost" aria-haspopup="dialog" onClick={() => setOpen('changes')}>
            Show changes
          </button>
        </>
      ) : null}
      {open === 'version' ? <RevisionDialog postId={postId} revisionId={revisionId} title={texts.version(postTitle)} onClose={() => setOpen(null)} /> : null}
      {open === 'changes' ? (
        <CompareDialog postId={postId} from={revisionId} to="current" fromLabel={texts.from} title={texts.changes(postTitle)} onClose={() => setOpen(null)} />
      ) : null}
    </div>
  );
}
