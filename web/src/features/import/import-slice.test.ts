// The import on screen: started, read, followed live by importProgress (an older answer never
// takes it back), kept in the tab across a reload, and forgotten on a change of user; the
// writer's list changes live too.
import { setupStore } from '@/app/store';
import { socketConnectRequested } from '@/features/socket';
import { sessionUserChanged } from '@/lib/session';
import { lastFakeSocket } from '@/test/fake-socket';
import { testImport } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { signedInAuth, testUser } from '@/test/render';
import { readImportMemory, rememberImport } from './import-memory';
import {
  cancelImport,
  confirmImport,
  dismissImport,
  fetchImport,
  fetchImports,
  importResumed,
  removeImportedPosts,
  selectImports,
  startImport,
} from './import-slice';
import { feedUrlProblem, fileProblem, postsToImport, sourceChoice } from './import-sources';
import { importFrom, mergeImport } from './import-view';

const ID = '64b000000000000000000001';
const sample = [{ title: 'Basic Post', slug: 'basic-post', status: 'published' as const, kind: 'post' as const, date: '2013-06-07T03:00:44Z', blocks: [] }];

function store() {
  const s = setupStore({ auth: signedInAuth() });
  s.dispatch(socketConnectRequested({ token: 'token-1' }));
  return s;
}

describe('merging what is heard of an import', () => {
  it('takes a later status, or the same status updated later; keeps the sample events do not carry', () => {
    const shown = testImport({ status: 'preview', sample });
    const importing = testImport({ status: 'importing', updatedAt: '2026-03-01T10:01:00.000Z', progress: { phase: 'writing', done: 1, total: 4 } });
    expect(mergeImport(shown, importing)).toEqual({ ...importing, sample });
    // An answer sent before the confirmation (still preview) arrives late: dropped.
    expect(mergeImport(mergeImport(shown, importing), testImport({ status: 'preview' })).status).toBe('importing');
    const later = { ...importing, updatedAt: '2026-03-01T10:01:01.000Z', progress: { phase: 'writing' as const, done: 3, total: 4 } };
    const merged = mergeImport(importing, later);
    expect(merged.progress?.done).toBe(3);
    expect(mergeImport(merged, importing).progress?.done).toBe(3);
    expect(mergeImport(null, importing)).toBe(importing);
  });

  it('keeps no sample read while the export is still being read: the preview reads its own', () => {
    const parsing = mergeImport(null, testImport({ status: 'parsing', sample: [] }));
    expect(parsing.sample).toBeUndefined();
    expect(mergeImport(parsing, testImport({ status: 'preview' })).sample).toBeUndefined();
    expect(mergeImport(mergeImport(parsing, testImport({ status: 'preview' })), testImport({ status: 'preview', sample })).sample).toEqual(sample);
  });

  it('reads an importProgress object, and refuses what is not an import', () => {
    expect(importFrom({ ...testImport({ status: 'importing' }), progress: { phase: 'images', done: '2', total: 5 }, warnings: ['a', 3] })).toMatchObject({
      status: 'importing',
      progress: { phase: 'images', done: 2, total: 5 },
      warnings: ['a'],
    });
    expect(importFrom({ id: ID, source: 'wordpress', status: 'parsing' })).toMatchObject({ counts: { posts: 0 }, progress: null, report: null, error: null });
    // The sample of an answer: its posts read, each block with an id for the renderer.
    expect(
      importFrom({ ...testImport(), sample: [{ title: 'T', slug: 't', status: 'publish', kind: 'page', date: null, blocks: [{ type: 'paragraph', data: { text: 'Hi' } }, 'x'] }] })?.sample,
    ).toEqual([{ title: 'T', slug: 't', status: 'draft', kind: 'page', date: null, blocks: [{ id: 'sample-block-0', type: 'paragraph', data: { text: 'Hi' } }] }]);
    expect(importFrom({ ...testImport(), sample: null })).not.toHaveProperty('sample');
    expect(importFrom({ id: ID, source: 'wordpress', status: 'exploded' })).toBeNull();
    expect(importFrom({ id: ID, source: 'myspace', status: 'done' })).toBeNull();
    expect(importFrom({ source: 'wordpress', status: 'done' })).toBeNull();
    expect(importFrom('done')).toBeNull();
  });
});

describe('checks before sending', () => {
  const wordpress = sourceChoice('wordpress');
  it('asks for a file, refuses an empty one, one over 200 MB and one of another kind', () => {
    const max = 200 * 1024 * 1024;
    expect(fileProblem(wordpress, null, max)).toBe('Choose the WordPress export file to upload.');
    expect(fileProblem(wordpress, new File([], 'export.xml'), max)).toBe('“export.xml” is empty: choose the export file again.');
    const big = new File(['x'], 'export.xml');
    Object.defineProperty(big, 'size', { value: max + 1 });
    expect(fileProblem(wordpress, big, max)).toBe('“export.xml” is larger than the 200 MB an import can be.');
    expect(fileProblem(wordpress, new File(['{}'], 'ghost.json'), max)).toBe('A WordPress export is a .xml file: “ghost.json” is not one.');
    expect(fileProblem(wordpress, new File(['<rss/>'], 'EXPORT.XML'), max)).toBeNull();
  });

  it('wants a feed’s full http(s) address', () => {
    expect(feedUrlProblem(' ')).toBe('Enter the address of the feed.');
    expect(feedUrlProblem('example.com/feed')).toMatch(/starting with https:\/\//);
    expect(feedUrlProblem('javascript:alert(1)')).toMatch(/starting with https:\/\//);
    expect(feedUrlProblem(' https://example.com/feed ')).toBeNull();
  });

  it('counts the posts and pages an import creates', () => {
    expect(postsToImport(testImport().counts)).toBe(4);
  });
});

describe('the import on screen', () => {
  it('starts with a multipart upload, remembers the import in the tab, and follows importProgress', async () => {
    mockApi.on('POST', '/import', { status: 202, body: { id: ID, status: 'parsing' } });
    const s = store();
    const file = new File(['<rss/>'], 'export.xml', { type: 'text/xml' });
    await s.dispatch(startImport({ source: 'wordpress', file }));

    const body = mockApi.calls('POST', '/import')[0].body as FormData;
    expect(body.get('source')).toBe('wordpress');
    expect((body.get('file') as File).name).toBe('export.xml');
    expect(selectImports(s.getState())).toMatchObject({ currentId: ID, pending: null, current: { id: ID, status: 'parsing', fileName: 'export.xml' } });
    expect(readImportMemory(testUser._id).currentId).toBe(ID);
    expect(selectImports(s.getState()).history.items.map((i) => i.id)).toEqual([ID]);

    lastFakeSocket().fire('importProgress', testImport({ status: 'parsing', progress: { phase: 'parsing', done: 2, total: 6 } }));
    expect(selectImports(s.getState()).current?.progress).toEqual({ phase: 'parsing', done: 2, total: 6 });
    // Another import's news goes to the list only.
    lastFakeSocket().fire('importProgress', testImport({ id: '64b000000000000000000002', status: 'done' }));
    expect(selectImports(s.getState()).current?.id).toBe(ID);
    expect(selectImports(s.getState()).history.items.map((i) => i.id)).toEqual(['64b000000000000000000002', ID]);
  });

  it('sends a feed’s address as JSON', async () => {
    mockApi.on('POST', '/import', { status: 202, body: { id: ID, status: 'parsing' } });
    const s = store();
    await s.dispatch(startImport({ source: 'feed', url: 'https://example.com/feed' }));
    expect(mockApi.calls('POST', '/import')[0].body).toEqual({ source: 'feed', url: 'https://example.com/feed' });
    expect(selectImports(s.getState()).current).toMatchObject({ source: 'feed', url: 'https://example.com/feed', fileName: null });
  });

  it('keeps the server’s refusal', async () => {
    mockApi.on('POST', '/import', { status: 413, body: { message: 'The file is larger than the 200 MB an import can be.' } });
    const s = store();
    await s.dispatch(startImport({ source: 'wordpress', file: new File(['x'], 'export.xml') }));
    expect(selectImports(s.getState())).toMatchObject({ currentId: null, pending: null, requestError: 'The file is larger than the 200 MB an import can be.' });
  });

  it('confirms with the options, cancels, removes the posts; a 409 reads the import again', async () => {
    mockApi.on('GET', `/import/${ID}`, { body: { ...testImport({ counts: { ...testImport().counts, comments: 2 } }), sample } });
    const s = store();
    s.dispatch(importResumed(ID));
    await s.dispatch(fetchImport(ID));
    expect(selectImports(s.getState()).current?.sample).toEqual(sample);

    mockApi.on('POST', `/import/${ID}/confirm`, { status: 202, body: { id: ID, status: 'importing' } });
    await s.dispatch(confirmImport({ keepStatus: true, comments: 'skip' }));
    expect(mockApi.calls('POST', `/import/${ID}/confirm`)[0].body).toEqual({ keepStatus: true, comments: 'skip' });
    expect(selectImports(s.getState()).current).toMatchObject({ status: 'importing', progress: null, sample });

    // A poll answered before the confirmation arrives late: the screen stays on importing.
    await s.dispatch(fetchImport(ID));
    expect(selectImports(s.getState()).current?.status).toBe('importing');

    lastFakeSocket().fire('importProgress', testImport({ status: 'done', updatedAt: '2026-03-01T10:02:00.000Z', report: { created: 4, skipped: 1, failed: 0, comments: 0, imagesFetched: 2, imagesFailed: 0 } }));
    expect(selectImports(s.getState()).current).toMatchObject({ status: 'done', report: { created: 4 } });

    mockApi.on('POST', `/import/${ID}/cancel`, { status: 409, body: { message: 'This import has already ended.' } });
    mockApi.on('GET', `/import/${ID}`, { body: { ...testImport({ status: 'done', updatedAt: '2026-03-01T10:02:00.000Z' }), sample } });
    await s.dispatch(cancelImport());
    expect(selectImports(s.getState()).requestError).toBe('This import has already ended.');
    await vi.waitFor(() => expect(mockApi.calls('GET', `/import/${ID}`)).toHaveLength(3));

    mockApi.on('DELETE', `/import/${ID}/posts`, { body: { removed: 4 } });
    await s.dispatch(removeImportedPosts());
    expect(selectImports(s.getState())).toMatchObject({ removed: 4, pending: null, requestError: null });
  });

  it('is cancelled from the preview', async () => {
    mockApi.on('POST', `/import/${ID}/cancel`, { body: { id: ID, status: 'cancelled' } });
    const s = store();
    s.dispatch(importResumed(ID));
    lastFakeSocket().fire('importProgress', testImport());
    await s.dispatch(cancelImport());
    expect(selectImports(s.getState()).current?.status).toBe('cancelled');
    expect(selectImports(s.getState()).history.items[0].status).toBe('cancelled');
  });

  it('forgets an import the server no longer has (404), in the store and the tab', async () => {
    rememberImport(testUser._id, { source: 'ghost', currentId: ID });
    mockApi.on('GET', `/import/${ID}`, { status: 404, body: { message: 'Import not found' } });
    const s = store();
    s.dispatch(importResumed(ID));
    await s.dispatch(fetchImport(ID));
    expect(selectImports(s.getState())).toMatchObject({ currentId: null, current: null, currentError: null });
    expect(readImportMemory(testUser._id)).toEqual({ source: 'ghost', feedUrl: '', currentId: null });
  });

  it('says when the import could not be read, and does not send a second read while one is on its way', async () => {
    mockApi.on('GET', `/import/${ID}`, { status: 500, delayMs: 20 });
    const s = store();
    s.dispatch(importResumed(ID));
    await Promise.all([s.dispatch(fetchImport(ID)), s.dispatch(fetchImport(ID))]);
    expect(mockApi.calls('GET', `/import/${ID}`)).toHaveLength(1);
    expect(selectImports(s.getState()).currentError).toBe('Could not read the import');
  });

  it('goes back to the form on dismiss, and empties everything on a change of user', async () => {
    mockApi.on('GET', '/import', { body: { imports: [testImport({ status: 'done' })] } });
    const s = store();
    s.dispatch(importResumed(ID));
    rememberImport(testUser._id, { currentId: ID });
    await s.dispatch(fetchImports());
    expect(selectImports(s.getState()).history).toMatchObject({ status: 'succeeded', items: [{ id: ID }] });
    await s.dispatch(dismissImport());
    expect(selectImports(s.getState()).currentId).toBeNull();
    expect(readImportMemory(testUser._id).currentId).toBeNull();
    s.dispatch(sessionUserChanged({ previousUserId: testUser._id, userId: null }));
    expect(selectImports(s.getState()).history.items).toEqual([]);
  });
});
