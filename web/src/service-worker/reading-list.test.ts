// The offline reading list: which posts are kept, with their pictures, for whom, and the sync.
import 'fake-indexeddb/auto';
import { clearPersonalData, getMeta, listSaved, OFFLINE_API_CACHE, OFFLINE_MEDIA_CACHE, putQueued, listQueue, RECENT_MAX, setMeta } from '@/lib/offline-db';
import { FakeCaches } from '@/test/fake-caches';
import { testPost } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import type { Post } from '@/types/entities';
import { offlineApiAnswer, offlineShell } from './offline-routes';
import { claimOwner, mediaOf, postAnswered, slugOfPostPath, syncReadingList, type WorkerDeps } from './reading-list';

const caches = new FakeCaches();
let now = 1_000_000_000_000;
const deps: WorkerDeps = { fetch: (input, init) => mockApi.fetch(input, init), caches: caches.asCacheStorage(), now: () => now };
const DAY = 24 * 60 * 60 * 1000;

function post(slug: string, extra: Partial<Post> = {}): Post {
  return testPost({ _id: `id-${slug}`, slug, title: `Title ${slug}`, ...extra });
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The server answers these posts (and their pictures) as given. */
function serve(posts: Post[], bookmarks: Post[] = []) {
  mockApi.on('GET', /^\/api\/post\/[^/]+$/, (request) => {
    const slug = decodeURIComponent(request.path.split('/').pop() ?? '');
    const found = posts.find((p) => p.slug === slug);
    return found ? { body: { post: found } } : { status: 404, body: { message: 'Post not found' } };
  });
  mockApi.on('GET', '/post/get-post/bookmarks', () => ({ body: { posts: bookmarks } }));
  mockApi.on('GET', /^\/api\/comment\/all-comments\//, { body: { comments: [] } });
  mockApi.on('GET', /^\/api\/post\/[^/]+\/supporters$/, { body: { supporters: [], total: 0 } });
  mockApi.on('GET', /^\/api\/post\/bookmark-status\//, { body: { liked: false, bookmarked: false, likesCount: 0, bookmarksCount: 0 } });
  mockApi.on('GET', /^\/media\//, () => new Response('png', { headers: { 'Content-Type': 'image/png' } }));
}

const picture = {
  src: '/media/posts/abc.png',
  width: 800,
  height: 400,
  type: 'image/png',
  variants: [
    { src: '/media/posts/abc-400.png', width: 400, height: 200, type: 'image/png' },
    { src: '/media/posts/abc-400.webp', width: 400, height: 200, type: 'image/webp' },
  ],
};
const withPicture = post('with-picture', {
  thumbnail: picture.src,
  thumbnailImage: picture,
  blocks: [{ id: 'i1', type: 'image', data: { file: { url: '/media/posts/def.png', variants: [{ src: '/media/posts/def-400.webp', width: 400, height: 100, type: 'image/webp' }] } } }],
});

beforeEach(async () => {
  now = 1_000_000_000_000;
  await clearPersonalData(caches.asCacheStorage());
  await setMeta('owner', 'u1');
});

describe('the offline reading list', () => {
  it('knows a post answer from the other single-segment reads under /api/post/', () => {
    expect(slugOfPostPath('/api/post/hello%20world')).toBe('hello world');
    expect(slugOfPostPath('/api/post/following')).toBeNull();
    expect(slugOfPostPath('/api/post/like/p1')).toBeNull();
  });

  it('keeps a post the reader opened, with every size of its pictures, and answers it when the server cannot be reached', async () => {
    serve([withPicture]);
    expect(mediaOf(withPicture)).toEqual(['/media/posts/abc.png', '/media/posts/abc-400.png', '/media/posts/abc-400.webp', '/media/posts/def.png', '/media/posts/def-400.webp']);
    await postAnswered('with-picture', json({ post: withPicture }), deps);
    const [saved] = await listSaved();
    expect(saved).toMatchObject({ slug: 'with-picture', postId: 'id-with-picture', title: 'Title with-picture', bookmarked: false, openedAt: now });
    expect(caches.paths(OFFLINE_MEDIA_CACHE)).toEqual([...mediaOf(withPicture)].sort());

    // The server is away: the page's read is answered from what was kept.
    const waits: Promise<unknown>[] = [];
    const offline: WorkerDeps = { ...deps, fetch: () => Promise.reject(new TypeError('Failed to fetch')) };
    const answer = await offlineApiAnswer(new Request('http://localhost/api/post/with-picture'), { waitUntil: (p) => waits.push(p) }, offline);
    expect(((await answer.json()) as { post: Post }).post.title).toBe('Title with-picture');
    // One it does not keep is a network error, as without a worker.
    const missing = await offlineApiAnswer(new Request('http://localhost/api/post/other'), { waitUntil: (p) => waits.push(p) }, offline);
    expect(missing.type).toBe('error');
  });

  it('keeps the comments and supporters a page asks for before it reads the post again (a page the server painted), once the post is kept', async () => {
    serve([withPicture]);
    const waits: Promise<unknown>[] = [];
    const event = { waitUntil: (p: Promise<unknown>) => waits.push(p) };
    await offlineApiAnswer(new Request('http://localhost/api/comment/all-comments/id-with-picture'), event, deps);
    await offlineApiAnswer(new Request('http://localhost/api/post/id-with-picture/supporters?page=1&limit=10'), event, deps);
    // About a post never opened: not kept.
    await offlineApiAnswer(new Request('http://localhost/api/comment/all-comments/id-other'), event, deps);
    await Promise.all(waits);
    expect(caches.paths(OFFLINE_API_CACHE)).toEqual([]);
    await offlineApiAnswer(new Request('http://localhost/api/post/with-picture'), event, deps);
    await Promise.all(waits);
    expect(caches.paths(OFFLINE_API_CACHE)).toEqual(['/api/comment/all-comments/id-with-picture', '/api/post/id-with-picture/supporters', '/api/post/with-picture']);
  });

  it('keeps nothing for nobody (a guest, or before the page said who is signed in)', async () => {
    await clearPersonalData(caches.asCacheStorage());
    serve([withPicture]);
    await postAnswered('with-picture', json({ post: withPicture }), deps);
    expect(await listSaved()).toEqual([]);
  });

  it('drops a kept post that is answered locked or gone, and the pictures only it showed', async () => {
    serve([withPicture]);
    await postAnswered('with-picture', json({ post: withPicture }), deps);
    await postAnswered('with-picture', json({ post: { ...withPicture, locked: true, blocks: [] } }), deps);
    expect(await listSaved()).toEqual([]);
    expect(caches.paths(OFFLINE_MEDIA_CACHE)).toEqual([]);
    expect(caches.paths(OFFLINE_API_CACHE)).toEqual([]);
    await postAnswered('with-picture', json({ post: withPicture }), deps);
    await postAnswered('with-picture', json({ message: 'Post not found' }, 404), deps);
    expect(await listSaved()).toEqual([]);
  });

  it(`keeps the ${RECENT_MAX} most recently opened posts`, async () => {
    const posts = Array.from({ length: RECENT_MAX + 2 }, (_, i) => post(`p${i}`));
    serve(posts);
    for (const p of posts) {
      now += 1000;
      await postAnswered(p.slug, json({ post: p }), deps);
    }
    const kept = (await listSaved()).map((s) => s.slug);
    expect(kept).toHaveLength(RECENT_MAX);
    expect(kept).not.toContain('p0');
    expect(kept).not.toContain('p1');
    expect(kept).toContain(`p${RECENT_MAX + 1}`);
  });

  it('syncs: bookmarks are kept (from another device too), a post the reader lost access to and an old one are dropped', async () => {
    const open = post('open');
    const lost = post('lost');
    const old = post('old');
    const fromElsewhere = post('from-elsewhere');
    serve([open, lost, old, fromElsewhere]);
    await postAnswered('old', json({ post: old }), deps);
    now += 8 * DAY;
    await postAnswered('open', json({ post: open }), deps);
    await postAnswered('lost', json({ post: lost }), deps);
    // The author turned "lost" subscribers-only; the reader does not pay.
    serve([open, { ...lost, locked: true, blocks: [] }, old, fromElsewhere], [fromElsewhere]);
    const result = await syncReadingList(deps, { force: true });
    expect(result?.dropped.sort()).toEqual(['lost', 'old']);
    const saved = await listSaved();
    expect(saved.map((s) => [s.slug, s.bookmarked])).toEqual([
      ['from-elsewhere', true],
      ['open', false],
    ]);
    // A bookmark kept from the sync reads offline with its comments and status.
    expect(caches.paths(OFFLINE_API_CACHE)).toEqual(
      ['/api/comment/all-comments/id-from-elsewhere', '/api/comment/all-comments/id-open', '/api/post/bookmark-status/id-from-elsewhere', '/api/post/bookmark-status/id-open', '/api/post/from-elsewhere', '/api/post/open'].sort(),
    );
  });

  it('syncs at most once a minute unless forced', async () => {
    serve([], []);
    expect(await syncReadingList(deps)).not.toBeNull();
    now += 30_000;
    expect(await syncReadingList(deps)).toBeNull();
    expect(await syncReadingList(deps, { force: true })).not.toBeNull();
  });

  it('drops everything personal when the session is gone (401) or another person signs in', async () => {
    serve([withPicture]);
    await postAnswered('with-picture', json({ post: withPicture }), deps);
    await putQueued({ key: 'like:p1', kind: 'like', userId: 'u1', postId: 'p1', want: true, createdAt: 1 });
    expect(await claimOwner('u1', deps)).toBe(false);
    expect(await listSaved()).toHaveLength(1);
    expect(await claimOwner('u2', deps)).toBe(true);
    expect(await listSaved()).toEqual([]);
    expect(await listQueue()).toEqual([]);
    expect(caches.paths(OFFLINE_MEDIA_CACHE)).toEqual([]);
    expect(await getMeta('owner')).toBe('u2');

    await postAnswered('with-picture', json({ post: withPicture }), deps);
    mockApi.on('GET', '/post/get-post/bookmarks', { status: 401, body: { message: 'Unauthorized' } });
    await syncReadingList(deps, { force: true });
    expect(await listSaved()).toEqual([]);
    expect(await getMeta('owner')).toBeUndefined();
  });

  it('marks the shell it serves offline, for the app to show what can be read', async () => {
    const shell = new Response('<!doctype html><html lang="en"><head></head><body></body></html>', { headers: { 'Content-Type': 'text/html' } });
    expect(await (await offlineShell(shell)).text()).toBe('<!doctype html><html data-offline="" lang="en"><head></head><body></body></html>');
  });
});
