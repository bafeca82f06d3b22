// Settings → Import in Chromium against the real server, with the real WordPress export of the
// shared fixtures (`import/wordpress/sample.xml`, from TryGhost/migrate; see its SOURCE.md). A
// writer opens Settings → Import, chooses WordPress, uploads the file and sees the preview: the
// counts, the first posts drawn as they will arrive (the same titles as the API's answer, the
// export's first post among them); confirms, sees the progress bar and then the report, and finds
// the imported posts in their own posts list. Back on the settings page the tab shows the same
// import again, whose posts are removed after the confirmation dialog. The preview and the report
// are photographed (import-preview, import-done) and checked with axe-core.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { api, createAccount, launch, screenshot, seriousAccessibilityViolations, signedInPage, waitForShell } from './helpers.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PRESSROOM_ROOT = process.env.PRESSROOM_ROOT || path.resolve(HERE, '..', '..');
const FIXTURES = process.env.PRESSROOM_FIXTURES ?? path.join(PRESSROOM_ROOT, '../shared/fixtures');
const WXR = path.join(FIXTURES, 'import', 'wordpress', 'sample.xml');

/** Reads an element's text out of one WXR item (CDATA or not). */
function field(item, tag) {
  const match = item.match(new RegExp(`<${tag}>(?:<!\\[CDATA\\[)?([\\s\\S]*?)(?:\\]\\]>)?</${tag}>`));
  return match ? match[1].trim() : null;
}

/** The titles of the export's items whose post type is `post`, in the file's order. */
function postTitles(xml) {
  return [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map(([, item]) => item).filter((item) => field(item, 'wp:post_type') === 'post').map((item) => field(item, 'title'));
}

/** Scrolls so that `locator`'s top is just under the top bar. */
async function scrollToTop(locator) {
  await locator.evaluate((el) => window.scrollTo(0, window.scrollY + el.getBoundingClientRect().top - 80));
}


let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('settings: import', () => {
  it('imports a WordPress export after its preview, with live progress and a report; the posts arrive in the writer’s list and can be removed', async () => {
    const titles = postTitles(readFileSync(WXR, 'utf8'));
    assert.ok(titles.length > 0, `${WXR} has posts`);
    const account = await createAccount('importer');
    const page = await signedInPage(browser, account);
    // Failed loads show in the console without their address (the export's pictures live on the
    // web, which the test machine may not reach; the settings page's passkeys refuse an IP
    // address): the import routes' own failures are watched here.
    const importFailures = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/import') && response.status() >= 400) importFailures.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });

    // ── Settings → Import, from the settings page's own links ───────────────────────────────
    await page.goto('/user-setting');
    await waitForShell(page);
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Import', exact: true }).click();
    await page.waitForURL((url) => url.hash === '#import');
    const section = page.locator('#import');
    await section.getByRole('heading', { name: 'Import', level: 2 }).waitFor();
    await section.getByText('You have not imported anything yet.').waitFor();

    // ── WordPress, the real export ──────────────────────────────────────────────────────────
    await section.getByRole('group', { name: 'What to import from' }).getByRole('radio', { name: 'WordPress (.xml)' }).check();
    const fileInput = section.getByLabel('WordPress export file');
    assert.equal(await fileInput.getAttribute('accept'), '.xml,text/xml,application/xml');
    await fileInput.setInputFiles(WXR);
    await section.getByRole('button', { name: 'Upload' }).click();

    // ── The preview ─────────────────────────────────────────────────────────────────────────
    await section.getByRole('heading', { name: 'Preview', level: 3 }).waitFor({ timeout: 30_000 });
    const { data: listed } = await api('/import', { token: account.token });
    const id = listed.imports[0].id;
    assert.match(id, /^[0-9a-f]{24}$/);
    const { status, data: answer } = await api(`/import/${id}`, { token: account.token });
    assert.equal(status, 200, JSON.stringify(answer));
    assert.equal(answer.status, 'preview');
    assert.equal(answer.fileName, 'sample.xml');
    assert.ok(answer.counts.posts > 0, `counts: ${JSON.stringify(answer.counts)}`);

    const counts = section.getByTestId('import-counts');
    const shownCounts = await counts.evaluate((dl) =>
      Object.fromEntries([...dl.querySelectorAll('dt')].map((dt) => [dt.textContent, Number(dt.nextElementSibling.textContent)])),
    );
    assert.deepEqual(shownCounts, {
      Posts: answer.counts.posts,
      Drafts: answer.counts.drafts,
      Scheduled: answer.counts.scheduled,
      Pages: answer.counts.pages,
      Skipped: answer.counts.skipped,
      Images: answer.counts.images,
      Comments: answer.counts.comments,
    });
    const samples = section.getByTestId('import-sample');
    await samples.first().waitFor();
    const shownTitles = await samples.locator('h5').allInnerTexts();
    assert.ok(shownTitles.length > 0);
    assert.deepEqual(shownTitles, answer.sample.map((s) => s.title || 'Untitled'));
    assert.ok(shownTitles.includes(titles[0]), `the export's first post, “${titles[0]}”, is among the samples: ${shownTitles.join(', ')}`);
    if (answer.warnings.length === 0) await section.getByText('No warnings.').waitFor();
    else assert.equal(await section.getByRole('list', { name: 'Warnings' }).getByRole('listitem').count(), answer.warnings.length);
    const total = answer.counts.posts + answer.counts.pages;
    const confirm = section.getByRole('button', { name: `Import ${total} post${total === 1 ? '' : 's'}` });
    await confirm.waitFor();
    await scrollToTop(section.getByRole('heading', { name: 'Preview', level: 3 }));
    await screenshot(page, 'import-preview');
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'the import preview');

    // ── Confirmed: the progress bar, then the report ────────────────────────────────────────
    // The import of a few posts can be quicker than a look: the page notes any progress bar shown.
    await page.evaluate(() => {
      const root = document.querySelector('#import');
      window.__importProgressSeen = [];
      new MutationObserver(() => {
        const bar = root.querySelector('[role="progressbar"]');
        if (bar) window.__importProgressSeen.push({ name: bar.getAttribute('aria-label'), now: bar.getAttribute('aria-valuenow'), max: bar.getAttribute('aria-valuemax') });
      }).observe(root, { subtree: true, childList: true, attributes: true });
    });
    await confirm.click();
    await section.getByRole('heading', { name: 'Import finished', level: 3 }).waitFor({ timeout: 60_000 });
    const seen = await page.evaluate(() => window.__importProgressSeen);
    assert.ok(seen.some((bar) => bar.name === 'Importing'), `a progress bar showed while importing: ${JSON.stringify(seen)}`);
    const { data: done } = await api(`/import/${id}`, { token: account.token });
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.ok(done.report.created > 0, JSON.stringify(done.report));
    await section.getByText(`The import is done: ${done.report.created} post${done.report.created === 1 ? '' : 's'} created.`).waitFor();
    const report = await section.getByTestId('import-report').evaluate((dl) =>
      Object.fromEntries([...dl.querySelectorAll('dt')].map((dt) => [dt.textContent, Number(dt.nextElementSibling.textContent)])),
    );
    assert.deepEqual(report, {
      'Posts created': done.report.created,
      'Already imported': done.report.skipped,
      Failed: done.report.failed,
      Comments: done.report.comments,
      'Images fetched': done.report.imagesFetched,
      'Images failed': done.report.imagesFailed,
    });
    const row = section.getByRole('list', { name: 'Your imports' }).getByRole('listitem').filter({ hasText: 'sample.xml' });
    await row.filter({ hasText: 'Done' }).waitFor();
    assert.match(await row.innerText(), new RegExp(`${done.report.created} posts? created`));
    await scrollToTop(section.getByRole('heading', { name: 'Import finished', level: 3 }));
    await screenshot(page, 'import-done');
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'the import report');

    // ── The writer's posts: the imported ones are there (drafts: the published state was not kept) ──
    await section.getByRole('link', { name: 'See your posts' }).click();
    await page.waitForURL((url) => url.pathname === `/author-profile/${account.id}`);
    const yourPosts = page.locator('section[aria-label="Your posts"]');
    for (const title of titles) await yourPosts.locator('article', { hasText: title }).first().waitFor();
    const { data: mine } = await api(`/post/user/${account.id}/posts`, { token: account.token });
    const mineTitles = (mine.posts ?? []).map((p) => p.title);
    for (const title of titles) assert.ok(mineTitles.includes(title), `“${title}” is among the writer's posts: ${mineTitles.join(', ')}`);
    assert.ok((mine.posts ?? []).filter((p) => titles.includes(p.title)).every((p) => p.status === 'draft'), 'imported as drafts');

    // ── Back in settings: the tab shows the same import; its posts are removed after asking ──
    await page.goto('/user-setting#import');
    await waitForShell(page);
    await section.getByRole('heading', { name: 'Import finished', level: 3 }).waitFor();
    await section.getByRole('button', { name: 'Remove the imported posts' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove the imported posts?' });
    await dialog.getByRole('button', { name: 'Remove the posts' }).click();
    await section.getByText(/imported posts? removed\./).waitFor();
    assert.equal(await dialog.count(), 0);
    const { data: after } = await api(`/post/user/${account.id}/posts`, { token: account.token });
    assert.deepEqual((after.posts ?? []).filter((p) => titles.includes(p.title)), [], 'the imported posts are gone');

    assert.deepEqual(importFailures, []);
    assert.deepEqual(page.consoleErrors.filter((e) => !/Failed to load resource/.test(e)), []);
    await page.context().close();
  });
});
