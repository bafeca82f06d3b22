// The reports section and post revisions: the version a reader reported opens, and a post edited
// since its report says so and shows the changes (the comparison with the current version).
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth, testAdmin } from '@/test/render';
import { ReportsSection } from './reports-section';

const report = (over: Record<string, unknown> = {}) => ({
  _id: 'rep1',
  postId: 'p1',
  postTitle: 'Cheap pills',
  post: { _id: 'p1', slug: 'cheap-pills', title: 'Cheap pills' },
  author: { _id: 'u2', name: 'Wren Writer', email: 'wren@example.com' },
  reporter: { _id: 'u3', name: 'Rae Reader', email: 'rae@example.com' },
  reason: 'spam',
  details: 'Selling things',
  isReviewed: false,
  forwardedToAuthor: false,
  isAcknowledged: false,
  noticesSent: 0,
  createdAt: '2026-03-12T10:00:00Z',
  revisionId: 'r1',
  editedSince: false,
  postDeleted: false,
  ...over,
});

const comparison = {
  from: { id: 'r1', createdAt: '2026-03-12T10:00:00Z', reason: 'reported' },
  to: { id: 'current', createdAt: '2026-03-12T11:00:00Z', reason: 'saved' },
  title: { changed: false, words: [{ op: 'equal', text: 'Cheap pills' }] },
  blocks: [
    {
      change: 'changed',
      id: 'b1',
      type: 'paragraph',
      before: { id: 'b1', type: 'paragraph', data: { text: 'Buy pills now' } },
      after: { id: 'b1', type: 'paragraph', data: { text: 'Read about pills now' } },
      words: [
        { op: 'delete', text: 'Buy' },
        { op: 'insert', text: 'Read about' },
        { op: 'equal', text: ' pills now' },
      ],
    },
  ],
  fields: [],
  summary: { blocksAdded: 0, blocksRemoved: 0, blocksChanged: 1, wordsAdded: 2, wordsRemoved: 1 },
};

function renderSection(reports: unknown[]) {
  mockApi.on('GET', '/admin/reports', { body: { reports, total: reports.length, page: 1, totalPages: 1 } });
  return renderWithProviders(<ReportsSection />, { preloadedState: { auth: signedInAuth({ user: testAdmin, role: 'admin' }) } });
}

describe('reports and the reported version', () => {
  it('opens the version the reader reported; no "edited since" while the post is unchanged', async () => {
    mockApi.on('GET', '/post/p1/revisions/r1', {
      body: {
        revision: {
          id: 'r1',
          createdAt: '2026-03-12T10:00:00Z',
          by: { _id: 'u2', name: 'Wren Writer' },
          reason: 'reported',
          pinned: true,
          published: true,
          current: true,
          title: 'Cheap pills',
          change: { blocksAdded: 1, blocksRemoved: 0, blocksChanged: 0, wordsAdded: 3, wordsRemoved: 0 },
          blocks: [{ id: 'b1', type: 'paragraph', data: { text: 'Buy pills now' } }],
          thumbnail: null,
          category: null,
          tags: [],
          visibility: 'Public',
          audience: 'everyone',
        },
      },
    });
    const user = userEvent.setup();
    renderSection([report()]);
    const card = await screen.findByTestId('report-rep1');
    expect(card).toHaveTextContent('Reported version:');
    expect(within(card).queryByText('Edited since the report')).toBeNull();
    const opener = within(card).getByRole('button', { name: 'View what the reader saw' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Reported version of “Cheap pills”' });
    expect(await within(dialog).findByText('Buy pills now')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();
  });

  it('says a post was edited since the report and shows the changes from the reported version to now', async () => {
    mockApi.on('GET', '/post/p1/revisions/compare', { body: comparison });
    const user = userEvent.setup();
    renderSection([report({ editedSince: true }), report({ _id: 'rep2', revisionId: null })]);
    const card = await screen.findByTestId('report-rep1');
    expect(within(card).getByText('Edited since the report')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Show changes' }));
    const dialog = screen.getByRole('dialog', { name: 'Changes since the report on “Cheap pills”' });
    expect(await within(dialog).findByText(/^From/)).toHaveTextContent(/From the version the reader reported \(.+\) to the current version/);
    expect(dialog.querySelector('[data-block-id="b1"] del')).toHaveTextContent('Buy');
    expect(dialog.querySelector('[data-block-id="b1"] ins')).toHaveTextContent('Read about');
    const [call] = mockApi.calls('GET', '/post/p1/revisions/compare');
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ from: 'r1', to: 'current' });
    // A report from before revisions were kept offers neither.
    expect(screen.getByTestId('report-rep2')).not.toHaveTextContent('Reported version');
  });
  it('says a post was deleted since the report, and still opens what the reader saw', async () => {
    renderSection([report({ postDeleted: true })]);
    const card = await screen.findByTestId('report-rep1');
    expect(within(card).getByText('Post deleted since the report')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'View what the reader saw' })).toBeInTheDocument();
    expect(within(card).queryByText('Edited since the report')).not.toBeInTheDocument();
  });
});
