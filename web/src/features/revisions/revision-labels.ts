/** The words a writer reads about revisions: why one was saved, how much changed, what a field is. */
import { formatDateTime, relativeTime } from '@/lib/format';
import type { ChangeSummary, RevisionSummary } from './revision-types';

/** Why a revision was saved, in the writer's words (unknown reasons as the server spells them). */
export const REASON_LABELS: Record<string, string> = {
  created: 'Created',
  published: 'Published',
  unpublished: 'Unpublished',
  saved: 'Saved',
  autosave: 'Autosave',
  admin_edit: 'Edited by an administrator',
  blocked: 'Blocked',
  restored: 'Restored',
  reported: 'Reported version',
  appealed: 'Appealed version',
};

export function reasonLabel(reason: string): string {
  return REASON_LABELS[reason] ?? reason.replace(/_/g, ' ');
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * "+14 / −3 words, 2 blocks changed, 1 block added": the size of a change; "No changes to the
 * text" when only settings changed, or nothing.
 */
export function changeLabel(change: ChangeSummary | null | undefined): string {
  if (!change) return '';
  const parts: string[] = [];
  if (change.wordsAdded > 0 || change.wordsRemoved > 0) parts.push(`+${change.wordsAdded} / −${change.wordsRemoved} words`);
  if (change.blocksChanged > 0) parts.push(`${plural(change.blocksChanged, 'block', 'blocks')} changed`);
  if (change.blocksAdded > 0) parts.push(`${plural(change.blocksAdded, 'block', 'blocks')} added`);
  if (change.blocksRemoved > 0) parts.push(`${plural(change.blocksRemoved, 'block', 'blocks')} removed`);
  return parts.length > 0 ? parts.join(', ') : 'No changes to the text';
}

/** The same for a screen reader: "14 words added, 3 words removed, ...". */
export function changeSpoken(change: ChangeSummary | null | undefined): string {
  if (!change) return '';
  const parts: string[] = [];
  if (change.wordsAdded > 0 || change.wordsRemoved > 0) {
    parts.push(`${plural(change.wordsAdded, 'word', 'words')} added`, `${plural(change.wordsRemoved, 'word', 'words')} removed`);
  }
  if (change.blocksChanged > 0) parts.push(`${plural(change.blocksChanged, 'block', 'blocks')} changed`);
  if (change.blocksAdded > 0) parts.push(`${plural(change.blocksAdded, 'block', 'blocks')} added`);
  if (change.blocksRemoved > 0) parts.push(`${plural(change.blocksRemoved, 'block', 'blocks')} removed`);
  return parts.length > 0 ? parts.join(', ') : 'No changes to the text';
}

/** "Saved by Ada Lovelace, 12 Mar 2026, 14:05": a revision in a menu or a heading. */
export function revisionName(revision: Pick<RevisionSummary, 'reason' | 'createdAt' | 'by'>): string {
  const by = revision.by?.name ? ` by ${revision.by.name}` : '';
  return `${reasonLabel(revision.reason)}${by}, ${formatDateTime(revision.createdAt)}`;
}

/** "3 minutes ago (12 Mar 2026, 14:05)" */
export function whenLabel(createdAt: string): string {
  return `${relativeTime(createdAt)} (${formatDateTime(createdAt)})`;
}

/** The post's settings a comparison may name. */
export const FIELD_LABELS: Record<string, string> = {
  tags: 'Tags',
  category: 'Category',
  visibility: 'Visibility',
  audience: 'Who can read it',
  thumbnail: 'Thumbnail',
};

export const AUDIENCE_LABELS: Record<string, string> = {
  everyone: 'Everyone',
  subscribers: 'Subscribers only',
};

/** Editor.js block types as a writer knows them. */
export const BLOCK_LABELS: Record<string, string> = {
  paragraph: 'Paragraph',
  header: 'Heading',
  list: 'List',
  checklist: 'Checklist',
  quote: 'Quote',
  code: 'Code',
  delimiter: 'Divider',
  image: 'Image',
  embed: 'Embedded media',
  table: 'Table',
  poll: 'Poll',
  tip: 'Support card',
  warning: 'Note',
};

export function blockLabel(type: string): string {
  return BLOCK_LABELS[type] ?? 'Block';
}
