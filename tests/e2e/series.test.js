// Series in Chromium, against a server of this file's own over a database of its own (so the
// series "The Long Walk" has the address /series/the-long-walk; the database is dropped after,
// unless E2E_KEEP). A writer's three posts are created through the API; on /my-series the writer
// creates the series through the form, adds the posts (the second and third the wrong way round),
// puts them in order from the keyboard (Move up) and finds the order kept after a reload. The
// middle part's page, edited after publication, says "Edited {date}" and "Part 2 of 3 in The Long
// Walk" with the previous and next parts; a signed-in reader opens /series/the-long-walk, sees the
// parts in order and follows the series (still followed after a reload), then picks the daily
// digest in the alerts bell beside Following (kept after a reload, read back from the API); at
// 390 px the list of parts on the post page is folded until opened. Screenshots: my-series,
// my-series-390, series-bar, series-page, series-alerts, series-alerts-390, series-bar-390; the
// series page (also with the alerts menu open), /my-series and a part's page are checked with
// axe-core (1280 and 390 px, light and dark).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MongoClient } from 'mongodb';
import { api, createAccount, launch, logInThroughForm, newPage, screenshot, seriousAccessibilityViolations, startOwnServer, waitForShell } from './helpers.js';

const DB_NAME = `series_e2e_${Date.now().toString(36)}_${process.pid}`;
const DB_URI = process.env.PRESSROOM_TEST_MONGODB_URI || process.env.MONGODB_URI;

let browser;
let server;
before(async () => {
  // An edit right after publication counts as "Edited" (the setting's default is ten minutes).
  server = await startOwnServer({ name: 'series', dbName: DB_NAME, env: { PRESSROOM__REVISIONS__EDITED_GRACE_SECONDS: '0' } });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  if (!process.env.E2E_KEEP && DB_URI) {
    const mongo = await MongoClient.connect(DB_URI);
    await mongo.db(DB_NAME).dropDatabase().catch(() => {});
    await mongo.close();
  }
});

/** A page signed in through the login form (the cookie choice made, so the bar stays away). */
async function signIn(account, viewport) {
  const page = await newPage(browser, { baseURL: server.url, ...(viewport ? { viewport } : {}) });
  await page.addInitScript(() => localStorage.setItem('userCookieConsent', 'true'));
  await page.goto('/login');
  await logInThroughForm(page, account);
  await page.waitForURL((url) => url.pathname !== '/login');
  await waitForShell(page);
  return page;
}

/** No serious or critical axe violation (touch targets included) at 1280 and 390 px, light and dark. */
async function noSeriousViolations(page, what) {
  const viewport = page.viewportSize();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
    for (const theme of ['light', 'dark']) {
      await page.evaluate((t) => {
        document.documentElement.dataset.theme = t;
      }, theme);
      await page.waitForTimeout(60);
      assert.deepEqual(await seriousAccessibilityViolations(page, { targetSize: true }), [], `${what} at ${width} px, ${theme}`);
    }
  }
  await page.evaluate(() => {
    document.documentElement.dataset.theme = 'light';
  });
  await page.setViewportSize(viewport);
}

async function createPost(token, title, text) {
  const { status, data } = await api('/post/post-create', {
    method: 'POST',
    token,
    base: server.url,
    body: { title, tags: ['walking'], blocks: [{ id: 'p1', type: 'paragraph', data: { text } }] },
  });
  assert.equal(status, 201, JSON.stringify(data));
  return data.post;
}

/** The titles of a series' parts as the writer's page lists them, in order. */
async function partTitles(card) {
  return card.locator('.parts-editor__part .parts-editor__title a').allTextContents();
}

describe('series', () => {
  let writer;
  let reader;
  const posts = {};

  it('the writer creates a series on /my-series, adds three posts and puts them in order from the keyboard', async () => {
    writer = await createAccount('series-writer', 'correct horse battery', { base: server.url });
    reader = await createAccount('series-reader', 'correct horse battery', { base: server.url });
    posts.first = await createPost(writer.token, 'Setting out at dawn', 'We left the coast before the sun was up, with bread and a map.');
    posts.second = await createPost(writer.token, 'Crossing the river', 'The ferry was gone, so we waded where the water ran wide and slow.');
    posts.third = await createPost(writer.token, 'Home by the hills', 'On the third evening the hills opened onto the valley we knew.');

    const page = await signIn(writer);
    // From the account menu, as a writer finds it.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'My series' }).click();
    await page.waitForURL((url) => url.pathname === '/my-series');
    await page.getByRole('heading', { level: 1, name: 'Your series' }).waitFor();
    await page.getByText('You have no series yet').waitFor();

    // ── Create "The Long Walk" through the form ─────────────────────────────────────────────
    await page.getByRole('button', { name: 'New series' }).click();
    const form = page.getByRole('form', { name: 'New series' });
    await form.getByLabel('Title').fill('The Long Walk');
    await form.getByLabel('Description').fill('Three days on foot from the coast to the valley.');
    await form.getByRole('button', { name: 'Create series' }).click();
    const card = page.locator('[data-series-id]').filter({ has: page.getByRole('heading', { level: 2, name: 'The Long Walk' }) });
    await card.waitFor();
    assert.equal(await card.getByRole('link', { name: '/series/the-long-walk' }).getAttribute('href'), '/series/the-long-walk');

    // ── Add the posts: the first, then the third, then the second ───────────────────────────
    const add = card.getByRole('form', { name: 'Add a post to The Long Walk' });
    for (const [post, count] of [
      [posts.first, 1],
      [posts.third, 2],
      [posts.second, 3],
    ]) {
      await add.getByLabel('Post').selectOption(post._id);
      await add.getByRole('button', { name: 'Add to series' }).click();
      await card.locator('.parts-editor__part').nth(count - 1).waitFor();
    }
    assert.deepEqual(await partTitles(card), ['Setting out at dawn', 'Home by the hills', 'Crossing the river']);

    // ── Move "Crossing the river" up, from the keyboard ─────────────────────────────────────
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/posts') && r.url().includes('/api/series/'));
    await card.getByRole('button', { name: 'Move Crossing the river up' }).focus();
    await page.keyboard.press('Enter');
    const answer = await saved;
    assert.equal(answer.status(), 200, await answer.text());
    assert.deepEqual(await partTitles(card), ['Setting out at dawn', 'Crossing the river', 'Home by the hills']);
    // The focus stayed on the part that moved.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Move Crossing the river up');
    await page.getByText('“Crossing the river” moved to position 2 of 3.').waitFor({ state: 'attached' });

    // ── The order is kept: a reload shows it ───────────────────────────────────────────────
    await page.reload();
    await waitForShell(page);
    await card.waitFor();
    await card.locator('.parts-editor__part').nth(2).waitFor();
    assert.deepEqual(await partTitles(card), ['Setting out at dawn', 'Crossing the river', 'Home by the hills']);
    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
    await screenshot(page, 'my-series');
    await noSeriousViolations(page, '/my-series');
    await page.setViewportSize({ width: 390, height: 844 });
    await card.locator('.parts-editor__list').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'my-series-390');
    await page.context().close();
  });

  it("a part's page says where it stands in the series, with the previous and next parts, and when it was edited", async () => {
    // The writer edits the part's text after publishing it: its page says "Edited {date}".
    const edited = await api(`/post/update/${encodeURIComponent(posts.second.slug)}`, {
      method: 'PATCH',
      token: writer.token,
      base: server.url,
      body: { blocks: [{ id: 'p1', type: 'paragraph', data: { text: 'The ferry was gone, so we waded across where the water ran wide and slow.' } }] },
    });
    assert.equal(edited.status, 200, JSON.stringify(edited.data));
    const editedAt = edited.data.post.editedAt;
    assert.ok(editedAt, 'the edited post carries editedAt');

    const page = await signIn(writer);
    await page.goto(`/post/${posts.second.slug}`);
    const bar = page.getByRole('navigation', { name: 'Series' });
    await bar.waitFor();
    const byline = page.locator('.post__byline');
    assert.match(await byline.textContent(), /· Edited \S.* · 1 min read/);
    assert.equal(await byline.locator(`time[datetime="${editedAt}"]`).count(), 1);
    assert.equal((await bar.locator('.series-bar__title').textContent()).trim(), 'Part 2 of 3 in The Long Walk');
    assert.equal(await bar.getByRole('link', { name: 'The Long Walk' }).getAttribute('href'), '/series/the-long-walk');
    const previous = bar.getByRole('link', { name: 'Previous Part 1: Setting out at dawn' });
    assert.equal(await previous.getAttribute('href'), `/post/${posts.first.slug}`);
    const next = bar.getByRole('link', { name: 'Next Part 3: Home by the hills' });
    assert.equal(await next.getAttribute('href'), `/post/${posts.third.slug}`);
    // On a wide screen every part is listed, this one marked.
    assert.equal(await bar.locator('details').getAttribute('open'), '');
    assert.equal(await bar.locator('[aria-current="page"]').textContent(), 'Crossing the river');
    await screenshot(page, 'series-bar');
    await noSeriousViolations(page, 'a part of a series');

    // Next goes to the third part, whose bar has no next part.
    await next.click();
    await page.waitForURL((url) => url.pathname === `/post/${posts.third.slug}`);
    await page.getByRole('heading', { level: 1, name: 'Home by the hills' }).waitFor();
    assert.equal((await bar.locator('.series-bar__title').textContent()).trim(), 'Part 3 of 3 in The Long Walk');
    assert.equal(await bar.getByRole('link', { name: /^Next/ }).count(), 0);
    await page.context().close();
  });

  it('a reader opens the series page, sees the parts in order and follows the series', async () => {
    const page = await signIn(reader);
    await page.goto('/series/the-long-walk');
    await waitForShell(page);
    await page.getByRole('heading', { level: 1, name: 'The Long Walk' }).waitFor();
    assert.equal(await page.title(), 'The Long Walk · Pressroom');
    const parts = page.getByRole('region', { name: 'Parts' }).getByRole('heading', { level: 2 });
    assert.deepEqual(await parts.allTextContents(), ['Setting out at dawn', 'Crossing the river', 'Home by the hills']);
    assert.match(await page.getByText(/^A series by/).textContent(), /3 parts/);
    assert.equal((await page.getByTestId('series-progress').textContent()).trim(), '0 of 3 read');
    assert.equal(await page.getByRole('link', { name: 'Atom' }).getAttribute('href'), '/series/the-long-walk/feed.xml');
    assert.equal(await page.getByRole('link', { name: 'RSS' }).getAttribute('href'), '/series/the-long-walk/rss.xml');

    const follow = page.getByRole('button', { name: 'Follow The Long Walk' });
    const followed = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/follow'));
    await follow.click();
    await page.getByRole('button', { name: 'Following The Long Walk' }).waitFor();
    assert.equal((await followed).status(), 200);
    assert.equal((await page.getByTestId('series-followers').textContent()).trim(), '1 follower');
    await page.reload();
    await waitForShell(page);
    await page.getByRole('button', { name: 'Following The Long Walk', pressed: true }).waitFor();

    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
    await screenshot(page, 'series-page');
    await noSeriousViolations(page, '/series/the-long-walk');
    await page.context().close();
  });

  it('a follower picks the daily digest in the alerts bell beside Following, and the choice is kept', async () => {
    const page = await signIn(reader);
    await page.goto('/series/the-long-walk');
    await waitForShell(page);
    await page.getByRole('button', { name: 'Following The Long Walk', pressed: true }).waitFor();
    const bell = page.getByRole('button', { name: 'Alerts for new parts of The Long Walk: All new posts' });
    await bell.click();
    const menu = page.getByRole('menu', { name: 'New parts of The Long Walk' });
    await menu.waitFor();
    assert.equal(await menu.getByRole('menuitemradio', { name: /All new posts/ }).getAttribute('aria-checked'), 'true');
    await noSeriousViolations(page, 'the series alerts menu');
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/follow/alerts'));
    await menu.getByRole('menuitemradio', { name: /Daily digest/ }).click();
    assert.equal((await saved).status(), 200);
    await menu.waitFor({ state: 'detached' });
    await page.getByText('Alerts from The Long Walk saved.').waitFor();
    const { data } = await api('/series/the-long-walk', { token: reader.token, base: server.url });
    assert.equal(data.series.alerts, 'digest');
    assert.equal(data.series.following, true);

    await page.reload();
    await waitForShell(page);
    await page.getByRole('button', { name: 'Alerts for new parts of The Long Walk: Daily digest' }).click();
    await menu.waitFor();
    assert.equal(await menu.getByRole('menuitemradio', { name: /Daily digest/ }).getAttribute('aria-checked'), 'true');
    await screenshot(page, 'series-alerts');
    await page.setViewportSize({ width: 390, height: 844 });
    await menu.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'series-alerts-390');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('at 390 px the list of parts on a post page is folded until the reader opens it', async () => {
    const page = await signIn(reader, { width: 390, height: 844 });
    await page.goto(`/post/${posts.second.slug}`);
    const bar = page.getByRole('navigation', { name: 'Series' });
    await bar.waitFor();
    const details = bar.locator('details');
    assert.equal(await details.getAttribute('open'), null);
    assert.equal(await bar.getByRole('link', { name: 'Home by the hills', exact: true }).isVisible(), false);
    await bar.getByRole('link', { name: 'Next Part 3: Home by the hills' }).waitFor();
    await screenshot(page, 'series-bar-390');
    await bar.getByText('All 3 parts').click();
    await bar.getByRole('link', { name: 'Home by the hills', exact: true }).waitFor();
    assert.equal(await details.getAttribute('open'), '');
    await page.context().close();
  });
});
