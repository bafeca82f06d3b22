// Post revisions: the history's list (labels, sizes, badges; loading, empty and error states),
// comparing two versions (words, title, settings, blocks), restoring one after the question, and
// the dialogs the administrators' reports open.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentToasts } from '@/lib/toast';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import type { Post } from '@/types/entities';
import { CompareDialog, RevisionDialog } from './components/revision-dialogs';
import { RESTORE_QUESTION, RevisionHistoryDialog, UNSAVED_WARNING } from './components/revision-history';
import { changeLabel, reasonLabel, revisionName } from './revision-labels';
import type { Comparison, RevisionSummary } from './revision-types';

const change = (over: Partial<RevisionSummary['change']> = {}) => ({ blocksAdded: 0, blocksRemoved: 0, blocksChanged: 0, wordsAdded: 0, wordsRemoved: 0, ...over });
const ada = { _id: 'u1', name: 'Ada Lovelace' };
const rev = (id: string, over: Partial<RevisionSummary> = {}): RevisionSummary => ({
  id,
  createdAt: '2026-03-12T10:00:00Z',
  by: ada,
  reason: 'saved',
  pinned: false,
  published: false,
  current: false,
  title: 'On engines',
  change: change(),
  ...over,
});
const newest = rev('r3', {
  reason: 'saved',
  current: true,
  published: true,
  createdAt: '2026-03-12T12:00:00Z',
  change: change({ wordsAdded: 14, wordsRemoved: 3, blocksChanged: 2 }),
});
const middle = rev('r2', { reason: 'autosave', createdAt: '2026-03-12T11:00:00Z', change: change({ wordsAdded: 2, blocksAdded: 1 }) });
const first = rev('r1', { reason: 'created', pinned: true, createdAt: '2026-03-12T10:00:00Z', change: change({ wordsAdded: 40, blocksAdded: 3 }) });

const comparison: Comparison = {
  from: { id: 'r1', createdAt: '2026-03-12T10:00:00Z', reason: 'created' },
  to: { id: 'current', createdAt: '2026-03-12T12:00:00Z', reason: 'saved' },
  title: {
    changed: true,
    words: [
      { op: 'equal', text: 'On ' },
      { op: 'delete', text: 'engines' },
      { op: 'insert', text: 'analytical engines' },
    ],
  },
  blocks: [
    { change: 'unchanged', id: 'b0', type: 'paragraph', before: null, after: { id: 'b0', type: 'paragraph', data: { text: 'Kept as it was.' } }, words: null },
    {
      change: 'changed',
      id: 'b1',
      type: 'paragraph',
      before: { id: 'b1', type: 'paragraph', data: { text: 'The quick brown fox' } },
      after: { id: 'b1', type: 'paragraph', data: { text: 'The slow brown fox' } },
      words: [
        { op: 'equal', text: 'The ' },
        { op: 'delete', text: 'quick' },
        { op: 'insert', text: 'slow' },
        { op: 'equal', text: ' brown fox' },
      ],
    },
    { change: 'removed', id: 'b2', type: 'header', before: { id: 'b2', type: 'header', data: { text: 'Old heading', level: 2 } }, after: null, words: null },
    { change: 'added', id: 'b3', type: 'paragraph', before: null, after: { id: 'b3', type: 'paragraph', data: { text: 'A new ending.' } }, words: null },
  ],
  fields: [
    { field: 'tags', before: ['math'], after: ['math', 'history'] },
    { field: 'visibility', before: 'Public', after: 'Unlisted' },
    { field: 'audience', before: 'everyone', after: 'subscribers' },
  ],
  summary: { blocksAdded: 1, blocksRemoved: 1, blocksChanged: 1, wordsAdded: 5, wordsRemoved: 3 },
};

const restoredPost = {
  _id: 'p1',
  slug: 'on-engines',
  title: 'On engines',
  blocks: [{ id: 'b1', type: 'paragraph', data: { text: 'The quick brown fox' } }],
  status: 'draft',
} as unknown as Post;

function renderHistory(props: { unsavedChanges?: boolean; onRestored?: (post: Post) => void; onClose?: () => void } = {}) {
  const onRestored = props.onRestored ?? vi.fn();
  const onClose = props.onClose ?? vi.fn();
  const result = renderWithProviders(<RevisionHistoryDialog postId="p1" unsavedChanges={props.unsavedChanges ?? false} onRestored={onRestored} onClose={onClose} />, {
    preloadedState: { auth: signedInAuth() },
  });
  return { ...result, onRestored, onClose };
}

describe('revision labels', () => {
  it('names every reason in plain words and sizes a change', () => {
    expect(['published', 'saved', 'autosave', 'restored', 'admin_edit', 'blocked', 'created', 'reported', 'appealed'].map(reasonLabel)).toEqual([
      'Published',
      'Saved',
      'Autosave',
      'Restored',
      'Edited by an administrator',
      'Blocked',
      'Created',
      'Reported version',
      'Appealed version',
    ]);
    expect(changeLabel(change({ wordsAdded: 14, wordsRemoved: 3, blocksChanged: 2 }))).toBe('+14 / −3 words, 2 blocks changed');
    expect(changeLabel(change({ blocksAdded: 1, blocksRemoved: 1 }))).toBe('1 block added, 1 block removed');
    expect(changeLabel(change())).toBe('No changes to the text');
    expect(revisionName(first)).toMatch(/^Created by Ada Lovelace, /);
  });
});

describe('the revision history', () => {
  it('lists the revisions newest first: why, who, when, the size of the change and the badges', async () => {
    mockApi.on('GET', '/post/p1/revisions', { body: { revisions: [newest, middle, first], limit: 25 } });
    renderHistory();
    const dialog = screen.getByRole('dialog', { name: 'Revision history' });
    expect(within(dialog).getByRole('status')).toHaveTextContent('Loading the revisions...');
    const list = await within(dialog).findByRole('list', { name: 'Revisions, newest first' });
    const [top, mid, last] = within(list).getAllByRole('listitem');
    expect(top).toHaveTextContent('Saved · Ada Lovelace');
    expect(top).toHaveTextContent('+14 / −3 words, 2 blocks changed');
    expect(top).toHaveTextContent('14 words added, 3 words removed, 2 blocks changed');
    expect(top).toHaveTextContent('Current version');
    expect(top).toHaveTextContent('Published');
    // Nothing to compare the current version with, nor to restore.
    expect(within(top).queryByRole('button')).toBeNull();
    expect(mid).toHaveTextContent('Autosave');
    expect(mid).toHaveTextContent('+2 / −0 words, 1 block added');
    expect(within(mid).getByRole('button', { name: /^Restore autosave, / })).toBeInTheDocument();
    expect(last).toHaveTextContent('Created');
    expect(last).toHaveTextContent('Kept as evidence');
    expect(within(last).getByRole('button', { name: /^Compare created, .+, with the current version$/ })).toBeInTheDocument();
    expect(within(last).getByRole('time')).toHaveAttribute('dateTime', '2026-03-12T10:00:00Z');
  });

  it('says when there are no revisions yet, and when they could not be read (then reads them again)', async () => {
    mockApi.on('GET', '/post/p1/revisions', { status: 500, body: { message: 'Database unavailable' } }, { once: true });
    const user = userEvent.setup();
    renderHistory();
    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable');
    mockApi.on('GET', '/post/p1/revisions', { body: { revisions: [], limit: 25 } });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/^No revisions yet\./)).toBeInTheDocument();
  });

  it('closes with Escape and keeps Tab inside the dialog', async () => {
    mockApi.on('GET', '/post/p1/revisions', { body: { revisions: [newest, first], limit: 25 } });
    const user = userEvent.setup();
    const { onClose } = renderHistory();
    await screen.findByRole('list', { name: 'Revisions, newest first' });
    const dialog = screen.getByRole('dialog', { name: 'Revision history' });
    for (let i = 0; i < 8; i += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });

  it('compares a revision with the current version: words, title, settings and blocks, each marked', async () => {
    mockApi.on('GET', '/post/p1/revisions', { body: { revisions: [newest, middle, first], limit: 25 } });
    mockApi.on('GET', '/post/p1/revisions/compare', { body: comparison });
    const user = userEvent.setup();
    renderHistory();
    const list = await screen.findByRole('list', { name: 'Revisions, newest first' });
    await user.click(within(list).getByRole('button', { name: /^Compare created/ }));
    const [call] = mockApi.calls('GET', '/post/p1/revisions/compare');
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ from: 'r1', to: 'current' });
    expect(await screen.findByText(/^From/)).toHaveTextContent(/From Created, .+ to the current version/);
    expect(screen.getByRole('heading', { name: 'Changes' })).toHaveFocus();
    expect(screen.getByText('+5 / −3 words, 1 block changed, 1 block added, 1 block removed')).toBeInTheDocument();

    const title = screen.getByTestId('title-diff');
    expect(title.querySelector('del')).toHaveTextContent('[removed: engines]');
    expect(title.querySelector('ins')).toHaveTextContent('[added: analytical engines]');

    const changed = document.querySelector('[data-block-id="b1"]') as HTMLElement;
    expect(changed).toHaveTextContent('Changed');
    expect(changed.querySelector('del')).toHaveTextContent('quick');
    expect(changed.querySelector('ins')).toHaveTextContent('slow');
    expect(document.querySelector('[data-block-id="b2"]')).toHaveTextContent('Removed HeadingOld heading');
    expect(document.querySelector('[data-block-id="b3"]')).toHaveTextContent('Added ParagraphA new ending.');
    // Unchanged blocks fold away until asked for.
    expect(screen.getByText('1 block unchanged')).toBeInTheDocument();
    expect(screen.queryByText('Kept as it was.')).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Show unchanged blocks' }));
    expect(screen.getByText('Kept as it was.')).toBeInTheDocument();

    const tags = document.querySelector('[data-field="tags"]') as HTMLElement;
    expect(tags).toHaveTextContent('Tags');
    expect(tags.querySelector('ins')).toHaveTextContent('#history');
    expect(document.querySelector('[data-field="visibility"]')).toHaveTextContent('Visibilitywas Public → now Unlisted');
    expect(document.querySelector('[data-field="audience"]')).toHaveTextContent('Who can read itwas Everyone → now Subscribers only');

    await user.click(screen.getByRole('button', { name: '← Back to the history' }));
    expect(screen.getByRole('list', { name: 'Revisions, newest first' })).toBeInTheDocument();
  });

  it('compares any two revisions chosen in the form (by default the one before with the current version)', async () => {
    mockApi.on('GET', '/post/p1/revisions', { body: { revisions: [newest, middle, first], limit: 25 } });
    mockApi.on('GET', '/post/p1/revisions/compare', (req) => ({
      body: { ...comparison, from: { ...comparison.from, id: req.url.searchParams.get('from') ?? '' }, to: { ...comparison.to, id: req.url.searchParams.get('to') ?? '' } },
    }));
    const user = userEvent.setup();
    renderHistory();
    const form = await screen.findByRole('form', { name: 'Compare two versions' });
    expect(within(form).getByLabelText('Compare')).toHaveValue('r2');
    expect(within(form).getByLabelText('with')).toHaveValue('current');
    await user.selectOptions(within(form).getByLabelText('Compare'), 'r1');
    await user.selectOptions(within(form).getByLabelText('with'), 'r2');
    await user.click(within(form).getByRole('button', { name: 'Compare' }));
    await screen.findByText(/^From/);
    const [call] = mockApi.calls('GET', '/post/p1/revisions/compare');
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ from: 'r1', to: 'r2' });
  });

  it('restores a revision after asking: the editor gets the post, a toast says so, the list shows "Restored"', async () => {
    const restoredRevision = rev('r4', {
      reason: 'restored',
      current: true,
      createdAt: '2026-03-12T13:00:00Z',
      change: change({ wordsAdded: 3, wordsRemoved: 14, blocksChanged: 2 }),
    });
    mockApi.on('GET', '/post/p1/revisions', { body: { revisions: [newest, middle, first], limit: 25 } }, { once: true });
    mockApi.on('POST', '/post/p1/revisions/r1/restore', { body: { message: 'Revision restored', post: restoredPost, revision: restoredRevision } });
    const user = userEvent.setup();
    const { onRestored } = renderHistory({ unsavedChanges: true });
    const list = await screen.findByRole('list', { name: 'Revisions, newest first' });
    await user.click(within(list).getByRole('button', { name: /^Restore created/ }));
    const confirm = screen.getByRole('dialog', { name: 'Restore this revision?' });
    expect(`Restore this revision? ${within(confirm).getByText(/^The post will be updated/).textContent}`).toBe(RESTORE_QUESTION);
    expect(confirm).toHaveTextContent(UNSAVED_WARNING);
    // Cancel changes nothing.
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(mockApi.calls('POST', '/post/p1/revisions/r1/restore')).toHaveLength(0);

    mockApi.on('GET', '/post/p1/revisions', { body: { revisions: [restoredRevision, { ...newest, current: false }, middle, { ...first, current: true }], limit: 25 } });
    await user.click(within(list).getByRole('button', { name: /^Restore created/ }));
    await user.click(within(screen.getByRole('dialog', { name: 'Restore this revision?' })).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(onRestored).toHaveBeenCalledWith(restoredPost));
    expect(currentToasts().map((t) => t.message)).toContain('Revision restored');
    expect(screen.queryByRole('dialog', { name: 'Restore this revision?' })).toBeNull();
    const after = await screen.findByRole('list', { name: 'Revisions, newest first' });
    await waitFor(() => expect(within(after).getAllByRole('listitem')).toHaveLength(4));
    const top = within(after).getAllByRole('listitem')[0];
    expect(top).toHaveTextContent('Restored');
    expect(top).toHaveTextContent('Current version');
    // The restored one equals the post now too: neither is offered again.
    expect(within(within(after).getAllByRole('listitem')[3]).queryByRole('button', { name: /^Restore/ })).toBeNull();
  });

  it('keeps the question open with the reason when the restore is refused', async () => {
    mockApi.on('GET', '/post/p1/revisions', { body: { revisions: [newest, first], limit: 25 } });
    mockApi.on('POST', '/post/p1/revisions/r1/restore', { status: 403, body: { message: 'You are not allowed to manage this post' } });
    const user = userEvent.setup();
    const { onRestored } = renderHistory();
    const list = await screen.findByRole('list', { name: 'Revisions, newest first' });
    await user.click(within(list).getByRole('button', { name: /^Restore created/ }));
    const confirm = screen.getByRole('dialog', { name: 'Restore this revision?' });
    expect(confirm).not.toHaveTextContent(UNSAVED_WARNING);
    await user.click(within(confirm).getByRole('button', { name: 'Restore' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent('You are not allowed to manage this post');
    expect(onRestored).not.toHaveBeenCalled();
  });
});

describe('the dialogs of the reports', () => {
  it('shows a reported version as it was saved', async () => {
    mockApi.on('GET', '/post/p1/revisions/r1', {
      body: {
        revision: {
          ...first,
          reason: 'reported',
          blocks: [{ id: 'b1', type: 'paragraph', data: { text: 'Buy pills now' } }],
          thumbnail: null,
          category: null,
          tags: ['deals'],
          visibility: 'Public',
          audience: 'everyone',
        },
      },
    });
    renderWithProviders(<RevisionDialog postId="p1" revisionId="r1" title="Reported version of “On engines”" onClose={vi.fn()} />);
    const dialog = screen.getByRole('dialog', { name: 'Reported version of “On engines”' });
    expect(await within(dialog).findByText('Buy pills now')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Reported version by Ada Lovelace');
    expect(dialog).toHaveTextContent('#deals');
  });

  it('shows the changes since a report, and says when a version could not be found', async () => {
    mockApi.on('GET', '/post/p1/revisions/compare', { status: 404, body: { message: 'Revision not found' } });
    renderWithProviders(<CompareDialog postId="p1" from="r1" to="current" title="Changes since the report" onClose={vi.fn()} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Revision not found');
  });
});
