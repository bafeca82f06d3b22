// The offline reading list, in Chromium against a server of this file's own that the test really
// stops (the DevTools protocol's offline switch does not reach service workers): a reader's
// bookmarked post, with its pictures, opens and reads in full with the server gone; another page
// shows the offline screen listing what can be read; a like, a bookmark and a comment made while
// the server is gone show as pending, survive a reload, and once the server is started again
// (same database, same address) arrive exactly once; a post the reader lost access to (turned
// subscribers-only) is gone from the list after the sync; signing out clears the saved posts,
// the saved answers and the queue. Screenshots: offline-post.png, offline-post-end.png, offline-screen.png,
// offline-screen-390.png, offline-pending.png, offline-pending-reloaded.png, offline-sent.png;
// the offline pages are checked with axe-core.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  api,
  createAccount,
  persistentProfile,
  gradientPng,
  logInThroughForm,
  screenshot,
  seriousAccessibilityViolations,
  startOwnServer,
  waitForShell,
} from './helpers.js';

const DB = `pressroom_e2e_offline_${Date.now().toString(36)}`;
const PENDING = 'Pending — will be sent when you are back online';

let server;
let port;
let profile;

before(async () => {
  server = await startOwnServer({ name: 'offline', dbName: DB });
  port = server.port;
});

after(async () => {
  await profile?.close();
  await server?.stop();
});

/** Retries `check` until it returns without throwing (default up to 20 s). */
async function eventually(check, timeoutMs = 20_000, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}

/** What this device keeps, read in the page: the saved posts, the queue, the owner, the cached paths. */
function deviceState(page) {
  return page.evaluate(async () => {
    const db = await new Promise((resolve, reject) => {
      const open = indexedDB.open('pressroom-offline');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const all = (store) =>
      new Promise((resolve) => {
        if (!db.objectStoreNames.contains(store)) return resolve([]);
        const request = db.transaction(store).objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result);
      });
    const owner = await new Promise((resolve) => {
      if (!db.objectStoreNames.contains('meta')) return resolve(undefined);
      const request = db.transaction('meta').objectStore('meta').get('owner');
      request.onsuccess = () => resolve(request.result);
    });
    const saved = (await all('saved')).map((s) => s.slug).sort();
    const queue = (await all('queue')).map((e) => e.key);
    db.close();
    const cached = {};
    for (const name of ['pressroom-offline-api', 'pressroom-offline-media']) {
      cached[name] = (await caches.has(name)) ? (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname).sort() : [];
    }
    return { owner, saved, queue, cached };
  });
}

async function createPost(author, body) {
  const { status, data } = await api('/post/post-create', { method: 'POST', token: author.token, base: server.url, body: { status: 'published', ...body } });
  assert.equal(status, 201, JSON.stringify(data));
  return data.post;
}

/** Every picture of the page has loaded (and has pixels). */
async function picturesLoaded(page) {
  return page.locator('article img').evaluateAll((imgs) => imgs.map((img) => img.complete && img.naturalWidth > 0));
}

async function noSeriousViolations(page, what) {
  const violations = await seriousAccessibilityViolations(page);
  assert.deepEqual(violations, [], `${what}: ${violations.join('\n')}`);
}

describe('the offline reading list', () => {
  it('reads a bookmarked post with its pictures and lists what can be read with the server stopped, queues a like, a bookmark and a comment and sends each once when it is back, drops a post the reader lost, and forgets everything at sign-out', async () => {
    // ── Arrange: an author's posts; the reader bookmarks one ───────────────────────────────
    const base = server.url;
    const author = await createAccount('offline-author', 'correct horse battery', { base });
    const reader = await createAccount('offline-reader', 'correct horse battery', { base });
    const png = gradientPng(800, 400, [30, 90, 160], [220, 200, 120]).toString('base64');
    const bookmarked = await createPost(author, {
      title: 'Tide tables for the slow reader',
      thumbnail: `data:image/png;base64,${png}`,
      blocks: [
        { id: 'p1', type: 'paragraph', data: { text: 'The tide comes in twice a day, a little later each time.' } },
        { id: 'i1', type: 'image', data: { file: { url: `data:image/png;base64,${png}` }, caption: 'Low water at the estuary' } },
        { id: 'p2', type: 'paragraph', data: { text: 'The last line of the article, read without a connection.' } },
      ],
    });
    const toLose = await createPost(author, { title: 'Soon for supporters only', blocks: [{ id: 'p1', type: 'paragraph', data: { text: 'Readable by everyone, for now.' } }] });
    const engaged = await createPost(author, { title: 'Notes on harbour birds', blocks: [{ id: 'p1', type: 'paragraph', data: { text: 'Gulls, terns and the occasional heron.' } }] });
    const marked = await api(`/post/bookmark/${bookmarked._id}`, { method: 'POST', token: reader.token, base });
    assert.equal(marked.data.bookmarked, true, JSON.stringify(marked.data));

    // ── The reader signs in; the worker runs the site and keeps the posts they open ────────
    profile = await persistentProfile({ baseURL: base, name: 'offline' });
    await profile.context.addInitScript(() => localStorage.setItem('userCookieConsent', 'true'));
    const page = await profile.page();
    await page.goto('/login');
    await logInThroughForm(page, reader);
    await page.waitForURL((url) => url.pathname !== '/login');
    await waitForShell(page);
    await page.waitForFunction(() => navigator.serviceWorker?.controller?.scriptURL?.endsWith('/sw.js'), null, { timeout: 30_000 });
    // The worker knows whose list it keeps.
    await eventually(async () => assert.equal((await deviceState(page)).owner, reader.id));
    // Each is read a moment (the app reads the post once it has started: the worker keeps it then).
    const opened = [];
    for (const post of [bookmarked, toLose, engaged]) {
      await page.goto(`/post/${post.slug}`);
      await page.getByRole('heading', { level: 1, name: post.title }).waitFor();
      opened.push(post.slug);
      await eventually(async () => assert.deepEqual((await deviceState(page)).saved, [...opened].sort()));
      // Until the page has read all it reads (comments, supporters, suggestions).
      await page.waitForLoadState('networkidle');
    }
    const kept = await eventually(async () => {
      const state = await deviceState(page);
      assert.ok(state.cached['pressroom-offline-media'].length >= 2, `the pictures are kept: ${JSON.stringify(state.cached)}`);
      return state;
    });
    assert.ok(kept.cached['pressroom-offline-api'].includes('/api/auth/check'), 'the session check is kept');

    // The author turns one of them subscribers-only: the reader does not pay.
    const turned = await api(`/post/update/${toLose.slug}`, { method: 'PATCH', token: author.token, base, body: { audience: 'subscribers' } });
    assert.ok(turned.status < 300, JSON.stringify(turned.data));

    // ── The server stops ──────────────────────────────────────────────────────────────────
    await server.stop();
    assert.equal(await fetch(`${base}/health`).then(() => 'up', () => 'down'), 'down');

    // The bookmarked post opens and reads in full, pictures included.
    const served = await page.goto(`/post/${bookmarked.slug}`);
    assert.equal(served?.fromServiceWorker(), true, 'the page came from the worker');
    await page.getByRole('heading', { level: 1, name: bookmarked.title }).waitFor();
    await page.getByTestId('offline-notice').getByText('You are offline: this is the copy saved on this device.', { exact: false }).waitFor();
    await page.getByText('The last line of the article, read without a connection.').waitFor();
    await page.getByText('Low water at the estuary').waitFor();
    await eventually(async () => {
      const loaded = await picturesLoaded(page);
      assert.ok(loaded.length >= 2 && loaded.every(Boolean), `every picture loaded: ${JSON.stringify(loaded)}`);
    });
    await screenshot(page, 'offline-post');
    await page.getByText('The last line of the article, read without a connection.').scrollIntoViewIfNeeded();
    // Its comments and the reader's bookmark come from what was kept too.
    await page.getByText('No comments yet. Start the conversation.').waitFor();
    assert.equal(await page.getByRole('group', { name: 'Reactions to this post' }).getByRole('button', { name: /Bookmarked/ }).getAttribute('aria-pressed'), 'true');
    await screenshot(page, 'offline-post-end');
    await noSeriousViolations(page, 'a saved post, offline');

    // Another page: the offline screen, listing what can be read.
    await page.goto('/');
    const screen = page.getByTestId('offline-screen');
    await screen.waitFor();
    await page.getByRole('heading', { level: 1, name: 'You are offline' }).waitFor();
    const list = page.getByRole('list', { name: 'Saved on this device' });
    const titles = await list.getByRole('link').allTextContents();
    assert.deepEqual(titles.sort(), [bookmarked.title, engaged.title, toLose.title].sort());
    assert.match(await page.title(), /You are offline/);
    await screenshot(page, 'offline-screen');
    await noSeriousViolations(page, 'the offline screen');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'offline-screen-390');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'nothing wider than 390 px');
    await page.setViewportSize({ width: 1280, height: 860 });
    // Its links open the saved post (in the app, with the keyboard).
    await list.getByRole('link', { name: engaged.title }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: engaged.title }).waitFor();
    await page.getByText('Gulls, terns and the occasional heron.').waitFor();
    await page.getByText('No comments yet. Start the conversation.').waitFor();

    // ── A like, a bookmark and a comment while the server is gone ─────────────────────────
    const bar = page.getByRole('group', { name: 'Reactions to this post' });
    await bar.getByRole('button', { name: /^Like/ }).click();
    await bar.getByText('Like pending — will be sent when you are back online').waitFor();
    await bar.getByRole('button', { name: /^Bookmark/ }).click();
    const barNote = bar.getByText('Like and bookmark pending — will be sent when you are back online');
    await barNote.waitFor();
    const noteId = await barNote.getAttribute('id');
    for (const name of [/Liked/, /Bookmarked/]) {
      const button = bar.getByRole('button', { name });
      assert.equal(await button.getAttribute('aria-pressed'), 'true');
      assert.equal(await button.getAttribute('aria-describedby'), noteId, 'the button is described by the pending note');
    }
    const box = page.getByRole('textbox', { name: 'Add a comment' });
    await box.fill('Seen from the ferry: a heron, standing very still.');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    const comments = page.getByTestId('comment');
    const queuedComment = comments.filter({ hasText: 'Seen from the ferry' });
    await queuedComment.getByText(PENDING).waitFor();
    assert.equal(await box.inputValue(), '', 'the box is emptied: the comment is kept');
    await queuedComment.scrollIntoViewIfNeeded();
    await screenshot(page, 'offline-pending');
    await noSeriousViolations(page, 'a post with pending actions, offline');
    assert.deepEqual((await deviceState(page)).queue.length, 3);

    // A reload before the server is back: nothing lost, nothing doubled.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: engaged.title }).waitFor();
    await page.getByRole('group', { name: 'Reactions to this post' }).getByText('Like and bookmark pending — will be sent when you are back online').waitFor();
    await page.getByTestId('comment').filter({ hasText: 'Seen from the ferry' }).getByText(PENDING).waitFor();
    assert.equal(await page.getByTestId('comment').filter({ hasText: 'Seen from the ferry' }).count(), 1);
    assert.equal(await page.getByRole('group', { name: 'Reactions to this post' }).getByRole('button', { name: /Liked/ }).getAttribute('aria-pressed'), 'true');
    await page.getByTestId('comment').filter({ hasText: 'Seen from the ferry' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'offline-pending-reloaded');
    // The offline screen says what waits.
    await page.getByRole('link', { name: 'Pressroom home' }).click();
    await page.getByTestId('offline-screen').getByRole('status').filter({ hasText: '3 actions wait to be sent' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: engaged.title }).waitFor();

    // ── The server comes back (same database, same address) ──────────────────────────────
    server = await startOwnServer({ name: 'offline', dbName: DB, port });
    const reactions = page.getByRole('group', { name: 'Reactions to this post' });
    // The page notices by itself; what waited is sent and the marks go.
    await eventually(async () => assert.equal(await page.getByTestId('pending-note').count(), 0, 'still pending'), 30_000);
    assert.equal(await page.getByTestId('offline-notice').count(), 0, 'the offline notice is gone');
    await eventually(async () => assert.equal(await reactions.getByRole('button', { name: /Liked/ }).getAttribute('aria-pressed'), 'true'));
    await reactions.getByRole('button', { name: /Bookmarked/ }).waitFor();
    await page.getByTestId('comment').filter({ hasText: 'Seen from the ferry' }).getByRole('button', { name: 'Reply' }).waitFor();
    await page.getByTestId('comment').filter({ hasText: 'Seen from the ferry' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'offline-sent');

    // Through the API: exactly one comment, liked and bookmarked once.
    const { data: thread } = await api(`/comment/all-comments/${engaged._id}`, { token: reader.token, base });
    assert.deepEqual(
      thread.comments.map((c) => c.content),
      ['Seen from the ferry: a heron, standing very still.'],
    );
    const { data: status } = await api(`/post/bookmark-status/${engaged._id}`, { token: reader.token, base });
    assert.equal(status.liked, true);
    assert.equal(status.bookmarked, true);
    assert.equal(status.likesCount, 1);
    assert.equal(status.bookmarksCount, 1);
    assert.deepEqual((await deviceState(page)).queue, []);

    // The post the reader lost access to is gone from the list after the sync; the rest stays.
    await eventually(async () => {
      const state = await deviceState(page);
      assert.deepEqual(state.saved, [bookmarked.slug, engaged.slug].sort());
      assert.ok(!state.cached['pressroom-offline-api'].includes(`/api/post/${toLose.slug}`), 'its answer is gone');
    });

    // ── Sign-out clears every personal cache ──────────────────────────────────────────────
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await eventually(async () => {
      const state = await deviceState(page);
      assert.deepEqual(state, { owner: undefined, saved: [], queue: [], cached: { 'pressroom-offline-api': [], 'pressroom-offline-media': [] } });
    });
    const unexpected = profile.log.filter((line) => !/Failed to load resource|ERR_CONNECTION_REFUSED|ERR_FAILED|WebSocket connection/i.test(line));
    assert.deepEqual(unexpected, [], 'no errors in the page beyond the refused connections');
  });
});
