// Settings → Import: the form (sources, the file or the feed's address, checks before sending),
// reading with its progress bar, the preview (counts, warnings, sample posts drawn read-only,
// options), importing followed live, the report with the link to the writer's posts and the
// removal of what was imported, failures and cancellations, the earlier imports, and what a
// reload keeps.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { socketConnectRequested } from '@/features/socket';
import { lastFakeSocket } from '@/test/fake-socket';
import { testImport } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth, testUser } from '@/test/render';
import { importMemoryKey, readImportMemory, rememberImport } from '../import-memory';
import type { ImportItem } from '../import-types';
import { IMPORT_POLL_MS, ImportSection } from './import-section';

const ID = '64b000000000000000000001';
const sample = [
  {
    title: 'Basic Post',
    slug: 'basic-post',
    status: 'published' as const,
    kind: 'post' as const,
    date: '2013-06-07T03:00:44Z',
    blocks: [
      { id: 'b1', type: 'header', data: { text: 'My excerpt in content', level: 2 } },
      { type: 'paragraph', data: { text: 'We’re <b>not</b> testing HTML output here.' } },
      { id: 'b3', type: 'list', data: { style: 'unordered', items: ['One', 'Two'] } },
    ],
  },
  { title: 'Draft Post', slug: 'draft-post', status: 'draft' as const, kind: 'post' as const, date: null, blocks: [] },
];
const report = { created: 4, skipped: 1, failed: 0, comments: 0, imagesFetched: 2, imagesFailed: 1 };

function renderSection() {
  const result = renderWithProviders(<ImportSection />, { preloadedState: { auth: signedInAuth() } });
  result.store.dispatch(socketConnectRequested({ token: 'token-1' }));
  return result;
}

/** Sends `importProgress` as the server would (the object without its sample). */
function hear(item: ImportItem) {
  act(() => lastFakeSocket().fire('importProgress', item));
}

beforeEach(() => {
  mockApi.on('GET', '/import', { body: { imports: [] } });
});

describe('the import form', () => {
  it('offers each source with a labelled file input of its kind, and the feed’s address for a feed', async () => {
    const user = userEvent.setup();
    renderSection();
    const group = screen.getByRole('group', { name: 'What to import from' });
    expect(within(group).getAllByRole('radio').map((r) => r.parentElement?.textContent?.trim())).toEqual([
      'WordPress (.xml)',
      'Medium (.zip)',
      'Substack (.zip)',
      'Ghost (.json)',
      'Pressroom export (.zip)',
      'A feed (RSS, Atom or JSON Feed)',
    ]);
    expect(within(group).getByRole('radio', { name: 'WordPress (.xml)' })).toBeChecked();
    expect(screen.getByLabelText('WordPress export file')).toHaveAttribute('accept', '.xml,text/xml,application/xml');
    expect(screen.getByLabelText('WordPress export file')).toHaveAccessibleDescription(/Tools → Export → All content\. Upload the \.xml file, up to 200 MB\./);
    expect(screen.getByRole('button', { name: 'Upload' })).toBeInTheDocument();

    await user.click(within(group).getByRole('radio', { name: 'Ghost (.json)' }));
    expect(screen.getByLabelText('Ghost export file')).toHaveAttribute('accept', '.json,application/json');

    await user.click(within(group).getByRole('radio', { name: 'A feed (RSS, Atom or JSON Feed)' }));
    expect(screen.queryByLabelText(/export file/)).not.toBeInTheDocument();
    expect(screen.getByLabelText('Feed address')).toHaveAttribute('type', 'url');
    expect(screen.getByRole('button', { name: 'Read feed' })).toBeInTheDocument();
    expect(await screen.findByText('You have not imported anything yet.')).toBeInTheDocument();
  });

  it('says what is wrong with the file before sending anything', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderSection();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose the WordPress export file to upload.');
    expect(screen.getByLabelText('WordPress export file')).toHaveFocus();
    expect(screen.getByLabelText('WordPress export file')).toHaveAttribute('aria-invalid', 'true');

    await user.upload(screen.getByLabelText('WordPress export file'), new File([], 'export.xml', { type: 'text/xml' }));
    expect(screen.getByRole('alert')).toHaveTextContent('“export.xml” is empty: choose the export file again.');

    const big = new File(['<rss/>'], 'huge.xml', { type: 'text/xml' });
    Object.defineProperty(big, 'size', { value: 200 * 1024 * 1024 + 1 });
    await user.upload(screen.getByLabelText('WordPress export file'), big);
    expect(screen.getByRole('alert')).toHaveTextContent('“huge.xml” is larger than the 200 MB an import can be.');
    expect(screen.getByLabelText('WordPress export file')).toHaveAccessibleDescription(/“huge\.xml” is larger than the 200 MB/);

    await user.upload(screen.getByLabelText('WordPress export file'), new File(['{}'], 'ghost.json'));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByRole('alert')).toHaveTextContent('A WordPress export is a .xml file: “ghost.json” is not one.');

    await user.click(screen.getByRole('radio', { name: 'A feed (RSS, Atom or JSON Feed)' }));
    await user.type(screen.getByLabelText('Feed address'), 'example.com/feed');
    await user.click(screen.getByRole('button', { name: 'Read feed' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter the feed’s full address, starting with https://');
    expect(mockApi.calls('POST', '/import')).toHaveLength(0);
  });

  it('shows the server’s refusal', async () => {
    mockApi.on('POST', '/import', { status: 403, body: { message: 'Your account is blocked from publishing.' } });
    const user = userEvent.setup();
    renderSection();
    await user.upload(screen.getByLabelText('WordPress export file'), new File(['<rss/>'], 'export.xml', { type: 'text/xml' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account is blocked from publishing.');
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
  });

  it('keeps the source and the feed’s address across a reload', async () => {
    const user = userEvent.setup();
    const first = renderSection();
    await user.click(screen.getByRole('radio', { name: 'A feed (RSS, Atom or JSON Feed)' }));
    await user.type(screen.getByLabelText('Feed address'), 'https://example.com/feed');
    first.unmount();

    renderSection();
    expect(screen.getByRole('radio', { name: 'A feed (RSS, Atom or JSON Feed)' })).toBeChecked();
    expect(screen.getByLabelText('Feed address')).toHaveValue('https://example.com/feed');
    expect(JSON.parse(sessionStorage.getItem(importMemoryKey(testUser._id)) ?? '{}')).toMatchObject({ source: 'feed', feedUrl: 'https://example.com/feed' });
    await screen.findByText('You have not imported anything yet.');
  });
});

describe('an import from upload to report', () => {
  it('uploads, shows the reading progress, the preview, imports live and reports; the posts can be removed', async () => {
    mockApi.on('POST', '/import', { status: 202, delayMs: 20, body: { id: ID, status: 'parsing' } });
    mockApi.on('GET', `/import/${ID}`, { body: { ...testImport({ status: 'parsing', progress: { phase: 'parsing', done: 2, total: 8 } }), sample: [] } });
    const user = userEvent.setup();
    renderSection();
    await screen.findByText('You have not imported anything yet.');

    await user.upload(screen.getByLabelText('WordPress export file'), new File(['<rss/>'], 'export.xml', { type: 'text/xml' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByRole('button', { name: 'Uploading...' })).toBeDisabled();
    expect(screen.getByText('Uploading “export.xml”...')).toHaveAttribute('role', 'status');

    // Reading: a progress bar with its values once the total is known.
    expect(await screen.findByRole('heading', { name: 'Reading your export' })).toBeInTheDocument();
    const form = mockApi.calls('POST', '/import')[0].body as FormData;
    expect(form.get('source')).toBe('wordpress');
    expect((form.get('file') as File).name).toBe('export.xml');
    const bar = await screen.findByRole('progressbar', { name: 'Reading the export' });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '2'));
    expect(bar).toHaveAttribute('aria-valuemin', '0');
    expect(bar).toHaveAttribute('aria-valuemax', '8');
    expect(screen.getByText('Reading the export: 2 of 8')).toHaveAttribute('role', 'status');
    // Focus left the Upload button that is gone: it is on what replaced it.
    expect(screen.getByRole('region', { name: 'Reading your export' })).toHaveFocus();

    // The preview: the event says so, the sample comes with the read it brings on.
    mockApi.on('GET', `/import/${ID}`, {
      body: { ...testImport({ warnings: ['An audio file in “Basic Post” is kept as a link.'], counts: { ...testImport().counts, comments: 3 } }), sample },
    });
    hear(testImport({ counts: { ...testImport().counts, comments: 3 } }));
    expect(await screen.findByRole('heading', { name: 'Preview' })).toBeInTheDocument();
    const counts = screen.getByTestId('import-counts');
    expect(counts).toHaveAccessibleName('What the export holds');
    expect(within(counts).getAllByRole('term').map((t) => `${t.textContent}=${t.nextElementSibling?.textContent}`)).toEqual([
      'Posts=3',
      'Drafts=1',
      'Scheduled=0',
      'Pages=1',
      'Skipped=1',
      'Images=2',
      'Comments=3',
    ]);
    const posts = await screen.findAllByTestId('import-sample');
    expect(within(posts[0]).getByRole('heading', { name: 'Basic Post' })).toBeInTheDocument();
    expect(posts[0]).toHaveTextContent(/Published · .*2013/);
    expect(within(posts[0]).getByRole('heading', { name: 'My excerpt in content', level: 2 })).toBeInTheDocument();
    expect(within(posts[0]).getByText('not').tagName).toBe('B');
    expect(within(posts[0]).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['One', 'Two']);
    expect(posts[1]).toHaveTextContent('Draft · No date');
    expect(within(screen.getByRole('list', { name: 'Warnings' })).getByRole('listitem')).toHaveTextContent('An audio file in “Basic Post” is kept as a link.');

    // Options: keep the published state; skip the comments.
    const options = screen.getByRole('group', { name: 'Options' });
    await user.click(within(options).getByRole('checkbox', { name: "Keep each post's published state (otherwise everything arrives as a draft)" }));
    await user.click(within(screen.getByRole('group', { name: 'Comments (3)' })).getByRole('radio', { name: 'Skip' }));
    mockApi.on('POST', `/import/${ID}/confirm`, { status: 202, body: { id: ID, status: 'importing' } });
    mockApi.on('GET', `/import/${ID}`, { body: { ...testImport({ status: 'importing', updatedAt: '2026-03-01T10:01:00.000Z', progress: { phase: 'writing', done: 0, total: 4 } }), sample } });
    await user.click(screen.getByRole('button', { name: 'Import 4 posts' }));
    expect(mockApi.calls('POST', `/import/${ID}/confirm`)[0].body).toEqual({ keepStatus: true, comments: 'skip' });

    // Importing, followed live.
    expect(await screen.findByRole('heading', { name: 'Importing' })).toBeInTheDocument();
    hear(testImport({ status: 'importing', updatedAt: '2026-03-01T10:01:02.000Z', progress: { phase: 'images', done: 1, total: 2 } }));
    const importing = screen.getByRole('progressbar', { name: 'Importing' });
    expect(importing).toHaveAttribute('aria-valuenow', '1');
    expect(importing).toHaveAttribute('aria-valuemax', '2');
    expect(screen.getByText('Fetching the images: 1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel the import' })).toBeEnabled();

    const why = '"Basic Post": an image keeps its old address because example.com answered 404.';
    hear(testImport({ status: 'done', updatedAt: '2026-03-01T10:01:09.000Z', progress: { phase: 'done', done: 4, total: 4 }, report, warnings: [why] }));
    expect(await screen.findByRole('heading', { name: 'Import finished' })).toBeInTheDocument();
    expect(screen.getByText('The import is done: 4 posts created.')).toHaveAttribute('role', 'status');
    const figures = screen.getByTestId('import-report');
    expect(within(figures).getAllByRole('term').map((t) => `${t.textContent}=${t.nextElementSibling?.textContent}`)).toEqual([
      'Posts created=4',
      'Already imported=1',
      'Failed=0',
      'Comments=0',
      'Images fetched=2',
      'Images failed=1',
    ]);
    // What needs a look (an image kept at its old address) is listed under the report.
    const look = screen.getByTestId('import-outcome-warnings');
    expect(within(look).getByText('What needs a look (1)')).toBeInTheDocument();
    expect(within(look).getByText(why)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your posts' })).toHaveAttribute('href', `/author-profile/${testUser._id}`);
    // The list has it too, as it stands.
    const row = within(screen.getByRole('list', { name: 'Your imports' })).getByRole('listitem');
    expect(row).toHaveTextContent(/WordPress export\.xml.* · 4 posts created/);
    expect(row).toHaveTextContent('Done');

    // Removing what it created, after asking.
    mockApi.on('DELETE', `/import/${ID}/posts`, { body: { removed: 4 } });
    await user.click(screen.getByRole('button', { name: 'Remove the imported posts' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove the imported posts?' });
    expect(dialog).toHaveTextContent('The 4 posts this import created are deleted');
    await user.click(within(dialog).getByRole('button', { name: 'Keep them' }));
    expect(mockApi.calls('DELETE', `/import/${ID}/posts`)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Remove the imported posts' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove the posts' }));
    expect(await screen.findByText('4 imported posts removed.')).toHaveFocus();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove the imported posts' })).not.toBeInTheDocument();

    // Something else: the form again, and the tab forgets the import.
    await user.click(screen.getByRole('button', { name: 'Import something else' }));
    expect(screen.getByRole('heading', { name: 'New import' })).toBeInTheDocument();
    expect(readImportMemory(testUser._id).currentId).toBeNull();
  }, 20_000);

  it('reads a feed from its address', async () => {
    mockApi.on('POST', '/import', { status: 202, body: { id: ID, status: 'parsing' } });
    mockApi.on('GET', `/import/${ID}`, { body: { ...testImport({ source: 'feed', fileName: null, url: 'https://example.com/feed', status: 'parsing', progress: null }), sample: [] } });
    const user = userEvent.setup();
    renderSection();
    await user.click(screen.getByRole('radio', { name: 'A feed (RSS, Atom or JSON Feed)' }));
    await user.type(screen.getByLabelText('Feed address'), ' https://example.com/feed ');
    await user.click(screen.getByRole('button', { name: 'Read feed' }));
    expect(await screen.findByText('Feed · https://example.com/feed')).toBeInTheDocument();
    expect(mockApi.calls('POST', '/import')[0].body).toEqual({ source: 'feed', url: 'https://example.com/feed' });
    // No total yet: a bar without a value.
    const bar = screen.getByRole('progressbar', { name: 'Reading the export' });
    expect(bar).not.toHaveAttribute('aria-valuenow');
    expect(screen.getByText('Reading your export...')).toHaveAttribute('role', 'status');
  });

  it('shows why an import failed, as an alert', async () => {
    rememberImport(testUser._id, { currentId: ID });
    mockApi.on('GET', `/import/${ID}`, {
      body: { ...testImport({ status: 'failed', error: 'The WordPress export is not valid XML at line 12: unexpected end of file.' }), sample: [] },
    });
    renderSection();
    expect(await screen.findByRole('heading', { name: 'Import failed' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('The import failed: The WordPress export is not valid XML at line 12: unexpected end of file.');
    expect(screen.queryByRole('link', { name: 'See your posts' })).not.toBeInTheDocument();
  });

  it('cancels from the preview, and offers no comments choice when there are none', async () => {
    rememberImport(testUser._id, { currentId: ID });
    mockApi.on('GET', `/import/${ID}`, { body: { ...testImport(), sample } });
    mockApi.on('POST', `/import/${ID}/cancel`, { body: { id: ID, status: 'cancelled' } });
    const user = userEvent.setup();
    renderSection();
    expect(await screen.findByRole('heading', { name: 'Preview' })).toBeInTheDocument();
    expect(screen.getByText('No warnings.')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: /Comments/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel the import' }));
    expect(await screen.findByText('The import was cancelled: nothing was imported.')).toHaveAttribute('role', 'status');
    expect(screen.getByRole('heading', { name: 'Import cancelled' })).toBeInTheDocument();
  });

  it('shows the import again after a reload, and reads it every 2 s while it runs', async () => {
    rememberImport(testUser._id, { currentId: ID });
    mockApi.on('GET', `/import/${ID}`, { body: { ...testImport({ status: 'importing', progress: { phase: 'writing', done: 3, total: 4 } }), sample } });
    renderSection();
    expect(await screen.findByRole('heading', { name: 'Importing' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Importing' })).toHaveAttribute('aria-valuenow', '3');
    expect(mockApi.calls('GET', `/import/${ID}`)).toHaveLength(1);

    mockApi.on('GET', `/import/${ID}`, { body: { ...testImport({ status: 'done', updatedAt: '2026-03-01T10:09:00.000Z', report }), sample } });
    await waitFor(() => expect(mockApi.calls('GET', `/import/${ID}`)).toHaveLength(2), { timeout: IMPORT_POLL_MS + 2000 });
    expect(await screen.findByRole('heading', { name: 'Import finished' })).toBeInTheDocument();
    // Ended: no more reads.
    await new Promise((resolve) => setTimeout(resolve, IMPORT_POLL_MS + 200));
    expect(mockApi.calls('GET', `/import/${ID}`)).toHaveLength(2);
  }, 10_000);

  it('says when the import could not be read, and reads it again', async () => {
    rememberImport(testUser._id, { currentId: ID });
    mockApi.on('GET', `/import/${ID}`, { status: 500 }, { once: true });
    const user = userEvent.setup();
    renderSection();
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not read the import');
    mockApi.on('GET', `/import/${ID}`, { body: { ...testImport(), sample } });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Preview' })).toBeInTheDocument();
  });
});

describe('earlier imports', () => {
  it('lists them: source, file or address, date, status and posts created', async () => {
    mockApi.on('GET', '/import', {
      body: {
        imports: [
          testImport({ id: '64b000000000000000000003', source: 'feed', fileName: null, url: 'https://example.com/feed', status: 'failed', error: 'Not a feed' }),
          testImport({ status: 'done', report }),
        ],
      },
    });
    renderSection();
    const list = await screen.findByRole('list', { name: 'Your imports' });
    const [feed, wordpress] = within(list).getAllByRole('listitem');
    expect(feed).toHaveTextContent(/^Feed https:\/\/example\.com\/feed.+ · 0 posts createdFailed$/);
    expect(wordpress).toHaveTextContent(/^WordPress export\.xml.+2026.+ · 4 posts createdDone$/);
  });

  it('says while they load, and when they could not be loaded (then loads them again)', async () => {
    mockApi.on('GET', '/import', { status: 500, delayMs: 20 }, { once: true });
    const user = userEvent.setup();
    renderSection();
    expect(screen.getByText('Loading your imports...')).toHaveAttribute('role', 'status');
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load your imports');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('You have not imported anything yet.')).toBeInTheDocument();
  });
});
