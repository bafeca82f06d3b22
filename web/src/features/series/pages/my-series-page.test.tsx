// The writer's series: loading, empty and error states, creating, editing and deleting a series,
// adding and removing parts, and the order: moved from the keyboard (the full order sent, focus
// kept on the part) or by dragging, and put back with the server's message when refused.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentToasts } from '@/lib/toast';
import { testPost } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { mockAppStartup, renderApp, signedInAuth, testUser } from '@/test/render';
import type { ManagedPart, ManagedSeries } from '../series-types';

const part = (n: number, over: Partial<ManagedPart> = {}): ManagedPart => ({ _id: `p${n}`, slug: `day-${n}`, title: `Day ${n}`, status: 'published', visible: true, ...over });

const walk = (parts: ManagedPart[] = [part(1), part(2), part(3)], over: Partial<ManagedSeries> = {}): ManagedSeries => ({
  _id: 's1',
  slug: 'the-long-walk',
  title: 'The Long Walk',
  description: 'Three days on foot.',
  cover: null,
  author: { _id: testUser._id, name: testUser.name, avatar: null },
  total: parts.filter((p) => p.visible).length,
  followers: 2,
  following: false,
  createdAt: '2026-01-01T10:00:00Z',
  updatedAt: '2026-01-01T10:00:00Z',
  parts,
  ...over,
});
const other = walk([part(7)], { _id: 's2', slug: 'letters', title: 'Letters', description: '' });

const myPosts = [1, 2, 3, 4, 5, 7].map((n) => testPost({ _id: `p${n}`, slug: `day-${n}`, title: `Day ${n}`, author: { _id: testUser._id, name: testUser.name } }));
myPosts[4] = { ...myPosts[4], status: 'draft', isPublished: false };

function openPage(series: ManagedSeries[] | { status: number; body: unknown }) {
  mockAppStartup({ signedIn: true });
  mockApi.on('GET', '/series/mine', Array.isArray(series) ? { body: { series } } : series);
  mockApi.on('GET', `/post/user/${testUser._id}/posts`, { body: { posts: myPosts, total: myPosts.length } });
  return renderApp('/my-series', { preloadedState: { auth: signedInAuth() } });
}

const card = (title: string) => screen.getByRole('listitem', { name: title });
const partTitles = (title: string) =>
  Array.from(card(title).querySelectorAll('.parts-editor__part')).map((li) => li.querySelector('.parts-editor__title a')?.textContent);

describe('the writer’s series', () => {
  it('says it is loading, then that there are none yet', async () => {
    mockAppStartup({ signedIn: true });
    let release: () => void = () => {};
    mockApi.on('GET', '/series/mine', () => new Promise((resolve) => (release = () => resolve({ body: { series: [] } }))));
    renderApp('/my-series', { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByText('Loading your series...')).toHaveAttribute('role', 'status');
    release();
    expect(await screen.findByTestId('no-series')).toHaveTextContent('You have no series yet');
    expect(screen.getByRole('heading', { level: 1, name: 'Your series' })).toBeInTheDocument();
  });

  it("shows the server's error and reads the list again on Try again", async () => {
    openPage({ status: 500, body: { message: 'The store is busy' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('The store is busy');
    mockApi.on('GET', '/series/mine', { body: { series: [walk()] } });
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'The Long Walk' })).toBeInTheDocument();
  });

  it('creates a series from the form and shows it first; a refusal shows under the fields', async () => {
    openPage([other]);
    mockApi.on('POST', '/series', { status: 409, body: { message: 'This address is already taken by another series', code: 'conflict' } }, { once: true });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New series' }));
    const form = screen.getByRole('form', { name: 'New series' });
    await user.click(within(form).getByRole('button', { name: 'Create series' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Title is required');
    expect(mockApi.calls('POST', '/series')).toHaveLength(0);

    await user.type(within(form).getByLabelText('Title'), 'The Long Walk');
    await user.type(within(form).getByLabelText('Description'), 'Three days on foot.');
    await user.type(within(form).getByLabelText('Address (optional)'), 'letters');
    await user.click(within(form).getByRole('button', { name: 'Create series' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('This address is already taken by another series');

    mockApi.on('POST', '/series', { status: 201, body: { message: 'Series created', series: walk([]) } });
    await user.clear(within(form).getByLabelText('Address (optional)'));
    await user.click(within(form).getByRole('button', { name: 'Create series' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'The Long Walk' })).toBeInTheDocument();
    expect(mockApi.calls('POST', '/series')[0].body).toEqual({ title: 'The Long Walk', description: 'Three days on foot.', slug: 'letters' });
    expect(mockApi.calls('POST', '/series')[1].body).toEqual({ title: 'The Long Walk', description: 'Three days on foot.' });
    const titles = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(titles.indexOf('The Long Walk')).toBeLessThan(titles.indexOf('Letters'));
    expect(screen.getByRole('heading', { level: 2, name: '2 series' })).toBeInTheDocument();
    expect(currentToasts().map((t) => t.message)).toContain('Series created');
  });

  it('moves a part from the keyboard: the full order goes to the server and the focus stays on the part', async () => {
    openPage([walk()]);
    let answered: (value: { body: unknown }) => void = () => {};
    mockApi.on('PUT', '/series/s1/posts', () => new Promise((resolve) => (answered = resolve)));
    const user = userEvent.setup();
    const up = await screen.findByRole('button', { name: 'Move Day 3 up' });
    expect(screen.getByRole('button', { name: 'Move Day 1 up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move Day 3 down' })).toBeDisabled();
    up.focus();
    await user.keyboard('{Enter}');
    // Shown at once, before the server answered.
    await waitFor(() => expect(partTitles('The Long Walk')).toEqual(['Day 1', 'Day 3', 'Day 2']));
    expect(mockApi.calls('PUT', '/series/s1/posts')[0].body).toEqual({ postIds: ['p1', 'p3', 'p2'] });
    expect(screen.getByRole('button', { name: 'Move Day 3 up' })).toHaveFocus();
    expect(screen.getByText('“Day 3” moved to position 2 of 3.')).toHaveAttribute('role', 'status');
    answered({ body: { message: 'Parts reordered', series: walk([part(1), part(3), part(2)]) } });

    // To the top: Move up is then disabled, so the focus goes to Move down.
    mockApi.on('PUT', '/series/s1/posts', { body: { message: 'Parts reordered', series: walk([part(3), part(1), part(2)]) } });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(partTitles('The Long Walk')).toEqual(['Day 3', 'Day 1', 'Day 2']));
    expect(mockApi.calls('PUT', '/series/s1/posts')[1].body).toEqual({ postIds: ['p3', 'p1', 'p2'] });
    expect(screen.getByRole('button', { name: 'Move Day 3 down' })).toHaveFocus();
  });

  it("puts a refused order back and shows the server's message", async () => {
    openPage([walk()]);
    mockApi.on('PUT', '/series/s1/posts', { status: 400, body: { message: 'The new order must list every part of the series exactly once', code: 'validation_error' } });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Move Day 1 down' }));
    expect(await within(card('The Long Walk')).findByRole('alert')).toHaveTextContent('The new order must list every part of the series exactly once');
    expect(partTitles('The Long Walk')).toEqual(['Day 1', 'Day 2', 'Day 3']);
    expect(mockApi.calls('PUT', '/series/s1/posts')[0].body).toEqual({ postIds: ['p2', 'p1', 'p3'] });
  });

  it('sends moves made while a save is on its way one after the other, the latest order last', async () => {
    openPage([walk()]);
    const answers: ((value: { body: unknown }) => void)[] = [];
    mockApi.on('PUT', '/series/s1/posts', () => new Promise((resolve) => answers.push(resolve)));
    const user = userEvent.setup();
    (await screen.findByRole('button', { name: 'Move Day 3 up' })).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(partTitles('The Long Walk')).toEqual(['Day 1', 'Day 3', 'Day 2']));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(partTitles('The Long Walk')).toEqual(['Day 3', 'Day 1', 'Day 2']));
    expect(mockApi.calls('PUT', '/series/s1/posts')).toHaveLength(1);
    answers[0]({ body: { message: 'Parts reordered', series: walk([part(1), part(3), part(2)]) } });
    await waitFor(() => expect(mockApi.calls('PUT', '/series/s1/posts')).toHaveLength(2));
    expect(mockApi.calls('PUT', '/series/s1/posts')[1].body).toEqual({ postIds: ['p3', 'p1', 'p2'] });
    // The first answer does not undo the second move while it is on its way.
    expect(partTitles('The Long Walk')).toEqual(['Day 3', 'Day 1', 'Day 2']);
    answers[1]({ status: 409, body: { message: 'The series changed meanwhile: read it again' } } as never);
    // Refused: back to the last order the server accepted.
    await waitFor(() => expect(partTitles('The Long Walk')).toEqual(['Day 1', 'Day 3', 'Day 2']));
    expect(within(card('The Long Walk')).getByRole('alert')).toHaveTextContent('The series changed meanwhile: read it again');
    expect(screen.getByRole('button', { name: 'Move Day 3 up' })).toHaveFocus();
  });

  it('moves a part by dragging it onto another', async () => {
    openPage([walk()]);
    mockApi.on('PUT', '/series/s1/posts', { body: { message: 'Parts reordered', series: walk([part(3), part(1), part(2)]) } });
    await screen.findByRole('button', { name: 'Move Day 3 up' });
    const items = card('The Long Walk').querySelectorAll('.parts-editor__part');
    const dataTransfer = { setData: vi.fn(), effectAllowed: '', dropEffect: '' };
    fireEvent.dragStart(items[2], { dataTransfer });
    fireEvent.dragOver(items[0], { dataTransfer, clientY: 0 });
    fireEvent.drop(items[0], { dataTransfer });
    await waitFor(() => expect(partTitles('The Long Walk')).toEqual(['Day 3', 'Day 1', 'Day 2']));
    expect(mockApi.calls('PUT', '/series/s1/posts')[0].body).toEqual({ postIds: ['p3', 'p1', 'p2'] });
  });

  it('notes the parts readers cannot see, and takes a part out', async () => {
    openPage([walk([part(1), part(2, { status: 'draft', visible: false }), part(3)])]);
    mockApi.on('DELETE', '/series/s1/posts/p1', { body: { message: 'Post taken out of the series', series: walk([part(2, { status: 'draft', visible: false }), part(3)]) } });
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 2, name: 'The Long Walk' });
    const item = card('The Long Walk');
    expect(item).toHaveTextContent('3 parts (1 not visible to readers)');
    const draft = item.querySelector('[data-part-id="p2"]')!;
    expect(draft).toHaveTextContent('Not visible to readers (draft)');
    expect(item.querySelector('[data-part-id="p1"]')).not.toHaveTextContent('Not visible');
    await user.click(within(item).getByRole('button', { name: 'Remove Day 1 from the series' }));
    await waitFor(() => expect(partTitles('The Long Walk')).toEqual(['Day 2', 'Day 3']));
    expect(currentToasts().map((t) => t.message)).toContain('Post taken out of the series');
  });

  it('adds one of the writer’s posts: this series’ parts left out, another series’ posts not offered', async () => {
    openPage([walk(), other]);
    mockApi.on('POST', '/series/s1/posts', { status: 409, body: { message: 'This post is already part of another series' } }, { once: true });
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 2, name: 'The Long Walk' });
    const form = screen.getByRole('form', { name: 'Add a post to The Long Walk' });
    const select = await within(form).findByLabelText('Post');
    const options = within(select).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Choose a post', 'Day 4', 'Day 5 (draft)', 'Day 7 (in another series)']);
    expect(options[3]).toBeDisabled();

    await user.click(within(form).getByRole('button', { name: 'Add to series' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Choose one of your posts.');
    await user.selectOptions(select, 'p4');
    await user.click(within(form).getByRole('button', { name: 'Add to series' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('This post is already part of another series');

    mockApi.on('POST', '/series/s1/posts', { body: { message: 'Post added to the series', series: walk([part(1), part(2), part(3), part(4)]) } });
    await user.click(within(form).getByRole('button', { name: 'Add to series' }));
    await waitFor(() => expect(partTitles('The Long Walk')).toEqual(['Day 1', 'Day 2', 'Day 3', 'Day 4']));
    expect(mockApi.calls('POST', '/series/s1/posts')[1].body).toEqual({ postId: 'p4' });
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose a post', 'Day 5 (draft)', 'Day 7 (in another series)']);
  });

  it("changes a series' title, description and address; a taken address is refused with the server's words", async () => {
    openPage([walk()]);
    mockApi.on('PATCH', '/series/s1', { status: 409, body: { message: 'This address is already taken by another series' } }, { once: true });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit The Long Walk' }));
    const form = screen.getByRole('form', { name: 'Edit The Long Walk' });
    expect(within(form).getByLabelText('Address (optional)')).toHaveValue('the-long-walk');
    await user.clear(within(form).getByLabelText('Title'));
    await user.type(within(form).getByLabelText('Title'), 'The Longer Walk');
    await user.clear(within(form).getByLabelText('Address (optional)'));
    await user.type(within(form).getByLabelText('Address (optional)'), 'the-longer-walk');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('This address is already taken by another series');

    mockApi.on('PATCH', '/series/s1', { body: { message: 'Series updated', series: walk(undefined, { title: 'The Longer Walk', slug: 'the-longer-walk' }) } });
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'The Longer Walk' })).toBeInTheDocument();
    expect(mockApi.calls('PATCH', '/series/s1')[1].body).toEqual({ title: 'The Longer Walk', description: 'Three days on foot.', cover: '', slug: 'the-longer-walk' });
    expect(screen.getByRole('link', { name: '/series/the-longer-walk' })).toHaveAttribute('href', '/series/the-longer-walk');
  });

  it('deletes a series after asking; Cancel keeps it', async () => {
    openPage([walk()]);
    mockApi.on('DELETE', '/series/s1', { body: { message: 'Series deleted; its posts stay published on their own' } });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete The Long Walk' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete this series?' });
    expect(dialog).toHaveTextContent('Its posts stay published on their own.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(mockApi.calls('DELETE', '/series/s1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete The Long Walk' }));
    dialog = screen.getByRole('dialog', { name: 'Delete this series?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete series' }));
    expect(await screen.findByTestId('no-series')).toHaveTextContent('You have no series yet');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(currentToasts().map((t) => t.message)).toContain('Series deleted; its posts stay published on their own');
  });
});
