// Post revisions in Chromium against the real server. An author's post is created and edited
// twice through the API; in the editor the author opens the history (three revisions, newest
// first), compares the first with the second (an inserted and a deleted word are marked),
// restores the first (after the question) and finds it in the editor and as the new "Restored"
// revision; the history also works at 390 px. A reader then reports the post, the author edits it,
// and an administrator sees "Edited since the report" in the dashboard's Reports section and the
// changes since the reported version. Screenshots: revisions-history, revisions-history-390,
// revisions-compare, revisions-restored, revisions-restored-editor, report-edited-since,
// report-changes; each screen is checked with axe-core.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createAccount, createAdmin, launch, logInThroughForm, newPage, screenshot, seriousAccessibilityViolations, waitForShell } from './helpers.js';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A page signed in through the login form (the cookie choice made, so the bar stays away). */
async function signIn(account, viewport) {
  const page = await newPage(browser, viewport ? { viewport } : {});
  await page.addInitScript(() => localStorage.setItem('userCookieConsent', 'true'));
  await page.goto('/login');
  await logInThroughForm(page, account);
  await page.waitForURL((url) => url.pathname !== '/login');
  await waitForShell(page);
  return page;
}

async function noSeriousViolations(page, what) {
  assert.deepEqual(await seriousAccessibilityViolations(page), [], what);
}

const FIRST = 'The quick brown fox jumps over the lazy dog.';
const SECOND = 'The quick red fox jumps over the lazy dog.';
const KEPT = 'This paragraph never changes.';

async function patch(token, slug, body) {
  const { status, data } = await api(`/post/update/${encodeURIComponent(slug)}`, { method: 'PATCH', token, body });
  assert.equal(status, 200, JSON.stringify(data));
  return data.post;
}

/** Opens the editor's history for `slug` and waits for its list. */
async function openHistory(page, slug) {
  await page.goto(`/edit-post/${slug}`);
  await page.locator('.ce-block').first().waitFor();
  await page.getByRole('button', { name: 'History' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revision history' });
  await dialog.getByRole('list', { name: 'Revisions, newest first' }).waitFor();
  return dialog;
}

describe('post revisions', () => {
  let author;
  let post;
  let title;

  it('the history lists the revisions, compares two of them word by word, and restores the older one', async () => {
    author = await createAccount('revisions-author');
    title = `Foxes and dogs ${Date.now().toString(36)}`;
    const created = await api('/post/post-create', {
      method: 'POST',
      token: author.token,
      body: {
        title,
        tags: ['animals'],
        blocks: [
          { id: 'p1', type: 'paragraph', data: { text: FIRST } },
          { id: 'p2', type: 'paragraph', data: { text: KEPT } },
        ],
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.data));
    post = created.data.post;
    // Two edits: a word changed and a paragraph added; then the title and the tags.
    await patch(author.token, post.slug, {
      blocks: [
        { id: 'p1', type: 'paragraph', data: { text: SECOND } },
        { id: 'p2', type: 'paragraph', data: { text: KEPT } },
        { id: 'p3', type: 'paragraph', data: { text: 'A paragraph added later.' } },
      ],
    });
    await patch(author.token, post.slug, { title: `${title} (revised)`, tags: ['animals', 'nature'] });
    const listed = await api(`/post/${post._id}/revisions`, { token: author.token });
    assert.equal(listed.status, 200, JSON.stringify(listed.data));
    const [, second, first] = listed.data.revisions;
    assert.equal(listed.data.revisions.length, 3, JSON.stringify(listed.data.revisions.map((r) => r.reason)));

    // ── The history: newest first, why, who, how much ──────────────────────────────────────
    const page = await signIn(author);
    const dialog = await openHistory(page, post.slug);
    const items = dialog.getByRole('list', { name: 'Revisions, newest first' }).getByRole('listitem');
    assert.equal(await items.count(), 3);
    const top = items.nth(0);
    await top.getByText('Current version').waitFor();
    assert.match(await top.textContent(), /Saved · E2E revisions-author/);
    assert.match(await items.nth(1).textContent(), /Saved.*\+5 \/ −1 words, 1 block changed, 1 block added/);
    assert.match(await items.nth(2).textContent(), /Published/);
    assert.equal(await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null), true, 'focus is in the dialog');
    await screenshot(page, 'revisions-history');
    await noSeriousViolations(page, 'the revision history');

    // ── Compare the first and the second ─────────────────────────────────────────────────
    const picker = dialog.getByRole('form', { name: 'Compare two versions' });
    await picker.getByLabel('Compare').selectOption(first.id);
    await picker.getByLabel('with').selectOption(second.id);
    await picker.getByRole('button', { name: 'Compare' }).click();
    const changed = dialog.locator('[data-block-id="p1"]');
    await changed.waitFor();
    assert.match(await changed.textContent(), /Changed/);
    assert.equal((await changed.locator('del').textContent()).includes('brown'), true, 'the deleted word');
    assert.equal((await changed.locator('ins').textContent()).includes('red'), true, 'the inserted word');
    assert.equal(await changed.locator('del').evaluate((el) => getComputedStyle(el).textDecorationLine), 'line-through');
    assert.equal(await changed.locator('ins').evaluate((el) => getComputedStyle(el).textDecorationLine), 'underline');
    assert.match(await dialog.locator('[data-block-id="p3"]').textContent(), /Added.*A paragraph added later\./);
    await dialog.getByText('1 block unchanged').waitFor();
    await screenshot(page, 'revisions-compare');
    await noSeriousViolations(page, 'the comparison');

    // ── Restore the first, after the question ─────────────────────────────────────────────
    await dialog.getByRole('button', { name: /^Restore the version of / }).click();
    const confirm = page.getByRole('dialog', { name: 'Restore this revision?' });
    await confirm.getByText('The post will be updated to it; the current version stays in the history.').waitFor();
    await noSeriousViolations(page, 'the restore question');
    await confirm.getByRole('button', { name: 'Restore', exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByTestId('toaster').getByText('Revision restored').waitFor();
    const newTop = dialog.getByRole('list', { name: 'Revisions, newest first' }).getByRole('listitem').first();
    await newTop.getByText('Restored', { exact: true }).waitFor();
    await newTop.getByText('Current version').waitFor();
    await dialog.getByRole('list', { name: 'Revisions, newest first' }).getByRole('listitem').nth(3).waitFor();
    await screenshot(page, 'revisions-restored');

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('button', { name: 'History' }).evaluate((el) => el === document.activeElement), true, 'focus back on History');
    await page.locator('.ce-paragraph', { hasText: FIRST }).waitFor();
    assert.equal(await page.locator('.ce-paragraph', { hasText: 'A paragraph added later.' }).count(), 0);
    assert.equal(await page.getByLabel('Title').inputValue(), title);
    await screenshot(page, 'revisions-restored-editor');
    // The server has it too, with the history's new revision first.
    const now = await api(`/post/${post.slug}`, { token: author.token });
    assert.equal(now.data.post.title, title);
    const after = await api(`/post/${post._id}/revisions`, { token: author.token });
    assert.equal(after.data.revisions[0].reason, 'restored');
    assert.deepEqual(page.consoleErrors.filter((e) => !/Failed to load resource/.test(e)), []);
    await page.context().close();
  });

  it('the history and the comparison fit a 390 px screen', async () => {
    const page = await signIn(author, { width: 390, height: 844 });
    const dialog = await openHistory(page, post.slug);
    await screenshot(page, 'revisions-history-390');
    await noSeriousViolations(page, 'the history at 390 px');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling (${overflow} px)`);
    await dialog.getByRole('list', { name: 'Revisions, newest first' }).getByRole('button', { name: /^Compare / }).first().click();
    await dialog.locator('.revision-compare').waitFor();
    await screenshot(page, 'revisions-compare-390');
    await noSeriousViolations(page, 'the comparison at 390 px');
    await page.context().close();
  });

  it('an administrator sees that a reported post was edited since the report, and the changes', async () => {
    const reader = await createAccount('revisions-reader');
    const reported = await api('/admin/reports', { method: 'POST', token: reader.token, body: { postId: post._id, reason: 'spam', details: 'Selling something' } });
    assert.equal(reported.status, 201, JSON.stringify(reported.data));
    await patch(author.token, post.slug, {
      blocks: [
        { id: 'p1', type: 'paragraph', data: { text: 'The quick brown fox sleeps under the lazy dog.' } },
        { id: 'p2', type: 'paragraph', data: { text: KEPT } },
      ],
    });

    const admin = await createAdmin();
    const page = await signIn(admin);
    await page.goto('/admin?section=reports');
    await page.getByRole('heading', { level: 2, name: 'Reported posts' }).waitFor();
    const card = page.locator('[data-testid^="report-"]', { hasText: title });
    await card.getByText('Edited since the report').waitFor();
    await card.getByText('Reported version:').waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'report-edited-since');
    await noSeriousViolations(page, 'the reports section');

    await card.getByRole('button', { name: 'Show changes' }).click();
    const dialog = page.getByRole('dialog', { name: `Changes since the report on “${title}”` });
    const changed = dialog.locator('[data-block-id="p1"]');
    await changed.waitFor();
    const removed = (await changed.locator('del').allTextContents()).join(' ');
    const added = (await changed.locator('ins').allTextContents()).join(' ');
    assert.match(removed, /jumps.*over/, removed);
    assert.match(added, /sleeps.*under/, added);
    assert.match(await dialog.textContent(), /From the version the reader reported \(.+\) to the current version/);
    await screenshot(page, 'report-changes');
    await noSeriousViolations(page, 'the changes since the report');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await card.getByRole('button', { name: 'View what the reader saw' }).click();
    const version = page.getByRole('dialog', { name: `Reported version of “${title}”` });
    await version.getByText(FIRST).waitFor();
    await page.context().close();
  });
});
