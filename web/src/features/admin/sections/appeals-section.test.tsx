// The appeals section: pending and decided appeals, the appealed version and the changes since,
// lifting or keeping a block with a reply, a refused decision, the filter and live refreshes.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { socketEvents } from '@/features/socket';
import { mockApi, type MockRequest } from '@/test/mock-api';
import { mockAdminLoad, renderWithProviders, signedInAuth, testAdmin } from '@/test/render';
import { AdminPage, SECTIONS } from '../pages/admin-page';
import { AppealsSection } from './appeals-section';

const appeal = (over: Record<string, unknown> = {}) => ({
  _id: 'ap1',
  postId: 'p1',
  postTitle: 'Cheap pills',
  postSlug: 'cheap-pills',
  author: { _id: 'u2', name: 'Wren Writer', email: 'wren@example.com' },
  message: 'It was a mistake.\nPlease look again. <b>bold</b>',
  status: 'pending',
  createdAt: '2026-03-12T10:00:00Z',
  decidedAt: null,
  decidedBy: null,
  reply: null,
  revisionId: 'r1',
  editedSince: false,
  postBlocked: true,
  ...over,
});

const decided = (over: Record<string, unknown> = {}) =>
  appeal({
    _id: 'ap2',
    postTitle: 'Old news',
    postSlug: 'old-news',
    status: 'accepted',
    decidedAt: '2026-03-13T10:00:00Z',
    decidedBy: { _id: 'a9', name: 'Ida Admin', email: null },
    reply: 'Thanks, it is fine now.',
    postBlocked: false,
    ...over,
  });

const page = (appeals: unknown[], over: Record<string, unknown> = {}) => ({ body: { appeals, total: appeals.length, totalPages: 1, page: 1, limit: 10, ...over } });

const adminState = { auth: signedInAuth({ user: testAdmin, role: 'admin' }) };

function renderSection(appeals: unknown[]) {
  mockApi.on('GET', '/admin/appeals', page(appeals));
  return renderWithProviders(<AppealsSection />, { preloadedState: adminState });
}

const statusOf = (call: MockRequest) => call.url.searchParams.get('status');

describe('the appeals section', () => {
  it('comes right after Reports in the dashboard, as "Appeals"', () => {
    const at = SECTIONS.findIndex((s) => s.id === 'reports');
    expect(SECTIONS[at + 1]).toMatchObject({ id: 'appeals', label: 'Appeals', title: 'Appeals' });
  });

  it("the overview's appeals figure leads here, and the section's link counts the waiting appeals", async () => {
    mockAdminLoad();
    mockApi.on('GET', '/admin/overview', {
      body: {
        online: { count: 1, users: 1, guests: 0 },
        today: { since: new Date().toISOString(), signups: 0, posts: 0, reports: 0, contactMessages: 0 },
        unreadContactMessages: 0,
        openReports: 0,
        pendingAppeals: 2,
        totals: { users: 1, posts: 0 },
      },
    });
    renderWithProviders(<AdminPage />, { route: '/admin', preloadedState: adminState });
    const figure = await screen.findByRole('link', { name: /appeals waiting/ });
    expect(figure).toHaveAttribute('href', '/admin?section=appeals');
    expect(figure).toHaveTextContent('2');
    const nav = screen.getByRole('navigation', { name: 'Dashboard sections' });
    expect(within(nav).getByRole('link', { name: /^Appeals/ })).toHaveAttribute('href', '/admin?section=appeals');
    expect(within(nav).getByLabelText('2 waiting')).toBeInTheDocument();
  });

  it('shows a pending appeal with its decision form and a decided one with who decided, when, and the reply', async () => {
    renderSection([appeal(), decided()]);
    const card = await screen.findByTestId('appeal-ap1');
    expect(within(card).getByRole('link', { name: 'Cheap pills' })).toHaveAttribute('href', '/post/cheap-pills');
    expect(within(card).getByRole('link', { name: 'Wren Writer' })).toHaveAttribute('href', '/author-profile/u2');
    expect(within(card).getByText('Pending')).toHaveClass('chip');
    // The author's words as text: line breaks kept, no markup made.
    const message = within(card).getByText(/It was a mistake\./);
    expect(message.textContent).toBe('It was a mistake.\nPlease look again. <b>bold</b>');
    expect(message.querySelector('b')).toBeNull();
    expect(card).toHaveTextContent('Appealed version:');
    expect(within(card).queryByText('Edited since the appeal')).toBeNull();
    const form = within(card).getByRole('form', { name: 'Decide the appeal on “Cheap pills”' });
    expect(within(form).getByLabelText(/Reply to the author/)).toHaveAttribute('maxLength', '2000');
    expect(within(form).getByText('0 / 2000')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Lift the block' })).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Keep blocked' })).toBeInTheDocument();

    const other = screen.getByTestId('appeal-ap2');
    expect(within(other).getByText('Accepted')).toHaveClass('chip--ok');
    expect(other).toHaveTextContent(/Block lifted by Ida Admin · .+ · the post is visible now/);
    expect(other).toHaveTextContent('Thanks, it is fine now.');
    expect(within(other).queryByRole('form')).toBeNull();
    expect(screen.getByText('2 appeals waiting · new ones appear here as they arrive')).toBeInTheDocument();
  });

  it('says a post was edited since the appeal and shows the changes from the appealed version to now', async () => {
    mockApi.on('GET', '/post/p1/revisions/compare', {
      body: {
        from: { id: 'r1', createdAt: '2026-03-12T10:00:00Z', reason: 'appealed' },
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
      },
    });
    const user = userEvent.setup();
    renderSection([appeal({ editedSince: true }), appeal({ _id: 'ap3', revisionId: null })]);
    const card = await screen.findByTestId('appeal-ap1');
    expect(within(card).getByText('Edited since the appeal')).toBeInTheDocument();
    const opener = within(card).getByRole('button', { name: 'Show changes' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Changes since the appeal on “Cheap pills”' });
    expect(await within(dialog).findByText(/^From/)).toHaveTextContent(/From the version the author appealed \(.+\) to the current version/);
    expect(dialog.querySelector('[data-block-id="b1"] ins')).toHaveTextContent('Read about');
    const [call] = mockApi.calls('GET', '/post/p1/revisions/compare');
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ from: 'r1', to: 'current' });
    await user.keyboard('{Escape}');
    expect(opener).toHaveFocus();
    // An appeal without a pinned version offers neither.
    expect(screen.getByTestId('appeal-ap3')).not.toHaveTextContent('Appealed version');
  });

  it('opens the version the author appealed', async () => {
    mockApi.on('GET', '/post/p1/revisions/r1', {
      body: {
        revision: {
          id: 'r1',
          createdAt: '2026-03-12T10:00:00Z',
          by: { _id: 'u2', name: 'Wren Writer' },
          reason: 'appealed',
          pinned: true,
          published: true,
          current: false,
          title: 'Cheap pills',
          change: { blocksAdded: 0, blocksRemoved: 0, blocksChanged: 0, wordsAdded: 0, wordsRemoved: 0 },
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
    renderSection([appeal()]);
    const card = await screen.findByTestId('appeal-ap1');
    await user.click(within(card).getByRole('button', { name: 'View what the author appealed' }));
    const dialog = screen.getByRole('dialog', { name: 'Appealed version of “Cheap pills”' });
    expect(await within(dialog).findByText('Buy pills now')).toBeInTheDocument();
  });

  it('lifts the block with a reply after asking: the body, the server\'s message, and the card leaves the pending list', async () => {
    mockApi.on('GET', '/admin/settings', { body: { settings: { requireAdminTwoFactor: false } } });
    mockApi.on('GET', '/admin/appeals', page([appeal(), appeal({ _id: 'ap4', postTitle: 'Second' })]));
    mockApi.on('PATCH', '/admin/appeals/ap1', {
      body: {
        message: 'Appeal accepted: the post is visible again',
        appeal: decided({ _id: 'ap1', reply: 'Welcome back.', decidedBy: { _id: 'a1', name: 'Grace Hopper', email: null } }),
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<AdminPage />, { route: '/admin?section=appeals', preloadedState: adminState });
    expect(await screen.findByRole('heading', { level: 2, name: 'Appeals' })).toBeInTheDocument();
    const card = await screen.findByTestId('appeal-ap1');
    const reply = within(card).getByLabelText(/Reply to the author/);
    await user.type(reply, 'Welcome back.');
    expect(within(card).getByText('13 / 2000')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Lift the block' }));
    const confirm = screen.getByRole('dialog', { name: 'Lift the block on “Cheap pills”?' });
    expect(confirm).toHaveTextContent('The post becomes visible again and Wren Writer is told with your reply.');
    await user.click(within(confirm).getByRole('button', { name: 'Lift the block' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Appeal accepted: the post is visible again');
    expect(mockApi.calls('PATCH', '/admin/appeals/ap1').map((c) => c.body)).toEqual([{ decision: 'accept', reply: 'Welcome back.' }]);
    await waitFor(() => expect(screen.queryByTestId('appeal-ap1')).toBeNull());
    expect(screen.getByTestId('appeal-ap4')).toBeInTheDocument();
    expect(screen.getByText('1 appeal waiting · new ones appear here as they arrive')).toHaveFocus();
  });

  it('keeps the block without a reply; in the All list the card changes in place', async () => {
    mockApi.on('GET', '/admin/appeals', (req) => page(statusOf(req) === 'all' ? [appeal()] : []));
    mockApi.on('PATCH', '/admin/appeals/ap1', {
      body: {
        message: 'Appeal rejected: the post stays blocked',
        appeal: appeal({ status: 'rejected', decidedAt: '2026-03-13T10:00:00Z', decidedBy: { _id: 'a1', name: 'Grace Hopper', email: null } }),
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<AppealsSection />, { preloadedState: adminState });
    expect(await screen.findByText('No appeals are waiting.')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'All' }));
    const card = await screen.findByTestId('appeal-ap1');
    await user.click(within(card).getByRole('button', { name: 'Keep blocked' }));
    const confirm = screen.getByRole('dialog', { name: 'Keep “Cheap pills” blocked?' });
    expect(confirm).toHaveTextContent('The post stays blocked and Wren Writer is told.');
    await user.click(within(confirm).getByRole('button', { name: 'Keep blocked' }));
    expect(await within(card).findByText('Rejected')).toHaveClass('chip--danger');
    expect(mockApi.calls('PATCH', '/admin/appeals/ap1').map((c) => c.body)).toEqual([{ decision: 'reject' }]);
    expect(card).toHaveTextContent(/Kept blocked by Grace Hopper/);
    expect(card).toHaveTextContent('No reply was sent with the decision.');
    expect(within(card).queryByRole('form')).toBeNull();
    expect(card.querySelector('.appeal__decision')).toHaveFocus();
  });

  it('a refused decision (409) says why, keeps the typed reply and refreshes the list', async () => {
    let lists = 0;
    mockApi.on('GET', '/admin/appeals', () => {
      lists += 1;
      return page([appeal()]);
    });
    mockApi.on('PATCH', '/admin/appeals/ap1', { status: 409, body: { message: 'This appeal was already decided', code: 'conflict' } });
    const user = userEvent.setup();
    renderWithProviders(<AppealsSection />, { preloadedState: adminState });
    const card = await screen.findByTestId('appeal-ap1');
    await user.type(within(card).getByLabelText(/Reply to the author/), 'Line one{enter}Line two');
    await user.click(within(card).getByRole('button', { name: 'Lift the block' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Lift the block' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent('This appeal was already decided');
    expect(within(card).getByLabelText(/Reply to the author/)).toHaveValue('Line one\nLine two');
    await waitFor(() => expect(lists).toBe(2));
    expect(within(card).getByRole('button', { name: 'Lift the block' })).toHaveFocus();
  });

  it('a refused decision whose appeal left the list is said above it, with the reply that was not sent', async () => {
    mockApi.on('GET', '/admin/appeals', page([appeal()]), { once: true });
    mockApi.on('PATCH', '/admin/appeals/ap1', () => {
      // Another administrator decided it first.
      mockApi.on('GET', '/admin/appeals', page([]));
      return { status: 409, body: { message: 'This appeal was already decided' } };
    });
    const user = userEvent.setup();
    renderWithProviders(<AppealsSection />, { preloadedState: adminState });
    const card = await screen.findByTestId('appeal-ap1');
    await user.type(within(card).getByLabelText(/Reply to the author/), 'Sorry about that.');
    await user.click(within(card).getByRole('button', { name: 'Keep blocked' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Keep blocked' }));
    await screen.findByText('No appeals are waiting.');
    expect(screen.getByRole('alert')).toHaveTextContent('“Cheap pills”: This appeal was already decided');
    expect(screen.getByText('Your reply, not sent').closest('blockquote')).toHaveTextContent('Sorry about that.');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('the filter asks the server for pending, decided or all appeals, each with its empty text', async () => {
    mockApi.on('GET', '/admin/appeals', page([]));
    const user = userEvent.setup();
    renderWithProviders(<AppealsSection />, { preloadedState: adminState });
    const tabs = screen.getByRole('tablist', { name: 'Appeals to show' });
    expect(within(tabs).getByRole('tab', { name: 'Pending' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('No appeals are waiting.')).toBeInTheDocument();
    expect(screen.getByRole('tabpanel', { name: 'Pending' })).toBeInTheDocument();
    await user.click(within(tabs).getByRole('tab', { name: 'Decided' }));
    expect(await screen.findByText('No appeals yet.')).toBeInTheDocument();
    expect(screen.getByText('0 decided appeals · new ones appear here as they arrive')).toBeInTheDocument();
    // The arrow keys move between the tabs (and choose).
    await user.keyboard('{ArrowRight}');
    expect(within(tabs).getByRole('tab', { name: 'All' })).toHaveFocus();
    await waitFor(() => expect(mockApi.calls('GET', '/admin/appeals').map(statusOf)).toEqual(['pending', 'decided', 'all']));
    expect(mockApi.calls('GET', '/admin/appeals').map((c) => c.url.searchParams.get('page'))).toEqual(['1', '1', '1']);
  });

  it('says when the list failed to load, and tries again', async () => {
    mockApi.on('GET', '/admin/appeals', page([appeal()]));
    mockApi.on('GET', '/admin/appeals', { status: 500, body: { message: 'Database unavailable' } }, { once: true });
    const user = userEvent.setup();
    renderWithProviders(<AppealsSection />, { preloadedState: adminState });
    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('appeal-ap1')).toBeInTheDocument();
  });

  it('fetches its current page again on a new appeal or a decision made elsewhere', async () => {
    mockApi.on('GET', '/admin/appeals', (req) => page(req.url.searchParams.get('page') === '2' ? [appeal({ _id: 'ap9' })] : [appeal()], { total: 11, totalPages: 2, page: Number(req.url.searchParams.get('page')) }));
    const user = userEvent.setup();
    const { store } = renderWithProviders(<AppealsSection />, { preloadedState: adminState });
    await screen.findByTestId('appeal-ap1');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByTestId('appeal-ap9');
    act(() => {
      store.dispatch(socketEvents.appealReceived({ postId: 'p7', postTitle: 'New one' }));
    });
    await waitFor(() => expect(mockApi.calls('GET', '/admin/appeals')).toHaveLength(3));
    act(() => {
      store.dispatch(socketEvents.appealDecided({ appealId: 'ap9', status: 'accepted' }));
    });
    await waitFor(() => expect(mockApi.calls('GET', '/admin/appeals')).toHaveLength(4));
    expect(mockApi.calls('GET', '/admin/appeals').map((c) => c.url.searchParams.get('page'))).toEqual(['1', '2', '2', '2']);
  });
});
