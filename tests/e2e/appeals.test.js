// Appeals against a block in Chromium against the real server. An author's post is blocked by an
// administrator; the author appeals and then edits the post. In the dashboard's Appeals section
// the administrator finds the appeal, sees "Edited since the appeal", the changes since the
// appealed version and that version itself, and lifts the block with a reply: the appeal moves to
// Decided as Accepted, the post is public again and the author is told, reply included. A second
// appeal is rejected through the API while the section is open at 390 px: the card leaves the
// list live, the author is told, and deciding it again is refused. Screenshots: appeals-pending,
// appeals-changes, appeals-accepted, appeals-390; each screen is checked with axe-core.
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

/** A page signed in through the login form (the cookie choice made), its socket connected. */
async function signIn(account, viewport) {
  const page = await newPage(browser, viewport ? { viewport } : {});
  await page.addInitScript(() => localStorage.setItem('userCookieConsent', 'true'));
  await page.goto('/login');
  await logInThroughForm(page, account);
  await page.waitForURL((url) => url.pathname !== '/login');
  await waitForShell(page);
  await page.locator('[data-testid="online-indicator"][data-socket-status="connected"]').waitFor();
  return page;
}

async function noSeriousViolations(page, what) {
  assert.deepEqual(await seriousAccessibilityViolations(page), [], what);
}

async function call(pathname, options, expected = 200) {
  const { status, data } = await api(pathname, options);
  assert.equal(status, expected, `${options?.method ?? 'GET'} ${pathname}: ${JSON.stringify(data)}`);
  return data;
}

/** The author's administrator notices (the inbox's "admin" kind), newest first. */
async function adminNotices(account) {
  const data = await call('/notification/notifications?type=admin', { token: account.token });
  return data.notifications.map((n) => n.content);
}

const APPEALED = 'Some words the moderators misread as an advertisement.';
const EDITED = 'Some words nobody could read as an advertisement.';
const APPEAL = 'This is a review, not an advertisement.\nPlease read it again.';
const REPLY = 'Thanks for explaining. The block is lifted.';

describe('appeals against a block', () => {
  let author;
  let admin;
  let post;
  let title;

  it('an administrator sees an appeal and what changed since, and lifts the block with a reply', async () => {
    author = await createAccount('appeals-author');
    admin = await createAdmin();
    title = `A fair review ${Date.now().toString(36)}`;
    const created = await call(
      '/post/post-create',
      { method: 'POST', token: author.token, body: { title, tags: ['reviews'], blocks: [{ id: 'p1', type: 'paragraph', data: { text: APPEALED } }] } },
      201,
    );
    post = created.post;
    // Blocked, appealed, then edited: the appeal pins the version before the edit.
    await call(`/admin/posts/block/${post._id}`, { method: 'PATCH', token: admin.token, body: {} });
    await call(`/post/appeal/${post._id}`, { method: 'POST', token: author.token, body: { message: APPEAL } }, 201);
    await call(`/post/update/${encodeURIComponent(post.slug)}`, {
      method: 'PATCH',
      token: author.token,
      body: { blocks: [{ id: 'p1', type: 'paragraph', data: { text: EDITED } }] },
    });

    // ── The pending appeal ───────────────────────────────────────────────────────────────
    const page = await signIn(admin);
    await page.goto('/admin?section=appeals');
    await page.getByRole('heading', { level: 2, name: 'Appeals' }).waitFor();
    assert.equal(await page.getByRole('tab', { name: 'Pending' }).getAttribute('aria-selected'), 'true');
    const card = page.locator('[data-testid^="appeal-"]', { hasText: title });
    await card.getByText('Edited since the appeal').waitFor();
    await card.getByText('Pending', { exact: true }).waitFor();
    assert.equal(await card.getByRole('link', { name: title }).getAttribute('href'), `/post/${post.slug}`);
    assert.equal(await card.locator('.card__text').textContent(), APPEAL, 'the appeal as written, line break kept');
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'appeals-pending');
    await noSeriousViolations(page, 'the pending appeals');

    // ── What changed since the appeal ────────────────────────────────────────────────────
    await card.getByRole('button', { name: 'Show changes' }).click();
    const changes = page.getByRole('dialog', { name: `Changes since the appeal on “${title}”` });
    const changed = changes.locator('[data-block-id="p1"]');
    await changed.waitFor();
    assert.match((await changed.locator('del').allTextContents()).join(' '), /moderators.*misread/);
    assert.match((await changed.locator('ins').allTextContents()).join(' '), /nobody.*could.*read/);
    assert.match(await changes.textContent(), /From the version the author appealed \(.+\) to the current version/);
    await screenshot(page, 'appeals-changes');
    await noSeriousViolations(page, 'the changes since the appeal');
    await page.keyboard.press('Escape');
    await changes.waitFor({ state: 'detached' });

    // ── The appealed version itself ──────────────────────────────────────────────────────
    await card.getByRole('button', { name: 'View what the author appealed' }).click();
    const version = page.getByRole('dialog', { name: `Appealed version of “${title}”` });
    await version.getByText(APPEALED).waitFor();
    await page.keyboard.press('Escape');
    await version.waitFor({ state: 'detached' });

    // ── Lift the block, with a reply, after the question ─────────────────────────────────
    await card.getByLabel('Reply to the author').fill(REPLY);
    await card.getByText(`${REPLY.length} / 2000`).waitFor();
    await card.getByRole('button', { name: 'Lift the block' }).click();
    const confirm = page.getByRole('dialog', { name: `Lift the block on “${title}”?` });
    await confirm.getByText(/is told with your reply/).waitFor();
    await confirm.getByRole('button', { name: 'Lift the block' }).click();
    await page.getByRole('status').filter({ hasText: 'Appeal accepted: the post is visible again' }).waitFor();
    await card.waitFor({ state: 'detached' });

    await page.getByRole('tab', { name: 'Decided' }).click();
    const decided = page.locator('[data-testid^="appeal-"]', { hasText: title });
    await decided.getByText('Accepted', { exact: true }).waitFor();
    assert.match(await decided.textContent(), new RegExp(`Block lifted by ${admin.fullName} · .+ · the post is visible now`));
    await decided.getByText(REPLY).waitFor();
    assert.equal(await decided.getByRole('form').count(), 0, 'no decision form once decided');
    await decided.scrollIntoViewIfNeeded();
    await screenshot(page, 'appeals-accepted');
    await noSeriousViolations(page, 'the decided appeals');
    assert.deepEqual(page.consoleErrors.filter((e) => !/Failed to load resource/.test(e)), []);
    await page.context().close();

    // The post is public again and the author was told, with the reply.
    await call(`/post/${encodeURIComponent(post.slug)}`, {});
    const notices = await adminNotices(author);
    assert.ok(notices.includes(`Your appeal for "${title}" was accepted: the post is visible again. Reply: ${REPLY}`), JSON.stringify(notices));
  });

  it('a second appeal rejected elsewhere leaves the open section live (390 px); deciding it again is refused', async () => {
    await call(`/admin/posts/block/${post._id}`, { method: 'PATCH', token: admin.token, body: {} });
    await call(`/post/appeal/${post._id}`, { method: 'POST', token: author.token, body: { message: 'Once more, please.' } }, 201);
    const listed = await call('/admin/appeals?status=pending', { token: admin.token });
    const appeal = listed.appeals.find((a) => a.postId === post._id);
    assert.ok(appeal, JSON.stringify(listed));
    assert.equal(appeal.editedSince, false);

    const page = await signIn(admin, { width: 390, height: 844 });
    await page.goto('/admin?section=appeals');
    const card = page.getByTestId(`appeal-${appeal._id}`);
    await card.getByRole('button', { name: 'Keep blocked' }).waitFor();
    assert.equal(await card.getByText('Edited since the appeal').count(), 0);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'appeals-390');
    await noSeriousViolations(page, 'the appeals at 390 px');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling (${overflow} px)`);

    // Another administrator keeps the block: the open list follows at once.
    const other = await createAdmin();
    const rejected = await call(`/admin/appeals/${appeal._id}`, { method: 'PATCH', token: other.token, body: { decision: 'reject', reply: 'The post still reads as an advertisement.' } });
    assert.equal(rejected.message, 'Appeal rejected: the post stays blocked');
    assert.equal(rejected.appeal.status, 'rejected');
    await card.waitFor({ state: 'detached' });
    await page.context().close();

    const again = await api(`/admin/appeals/${appeal._id}`, { method: 'PATCH', token: admin.token, body: { decision: 'accept' } });
    assert.deepEqual([again.status, again.data.message], [409, 'This appeal was already decided']);
    assert.equal((await api(`/post/${encodeURIComponent(post.slug)}`)).status, 404, 'still blocked');
    const notices = await adminNotices(author);
    assert.ok(
      notices.includes(`Your appeal for "${title}" was rejected: the post stays blocked. Reply: The post still reads as an advertisement.`),
      JSON.stringify(notices),
    );
  });
});
