// The administrators' dashboard in Chromium against the real server: a block signs the blocked
// user's open tab out; a report travels reader → administrator (live) → author (acknowledges from
// the notification) → administrator (acknowledged, live); a guest's contact message arrives live
// and the reply reaches the SMTP sink; the workbook downloads as a valid .xlsx; the Operations
// section's figures follow sockets as they connect and close; deleting a post asks in a modal
// dialog that Escape cancels. Every section is
// photographed and passes axe-core without serious or critical violations.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import {
  api,
  createAccount,
  createAdmin,
  launch,
  logInThroughForm,
  messagesTo,
  messageText,
  newPage,
  screenshot,
  seriousAccessibilityViolations,
  uniqueEmail,
  waitForShell,
} from './helpers.js';

let browser;
let admin;
before(async () => {
  browser = await launch();
  admin = await createAdmin();
});
after(async () => {
  await browser?.close();
});

/** A browser signed in through the login form, its socket connected. */
export async function signIn(account) {
  const page = await newPage(browser);
  await page.addInitScript(() => localStorage.setItem('userCookieConsent', 'false'));
  await page.goto('/login');
  await logInThroughForm(page, account);
  await page.waitForURL((url) => url.pathname !== '/login');
  await waitForShell(page);
  await page.locator('[data-testid="online-indicator"][data-socket-status="connected"]').waitFor();
  return page;
}

/** Opens a dashboard section and waits for its heading. */
async function openSection(page, id, title) {
  await page.goto(id === 'overview' ? '/admin' : `/admin?section=${id}`);
  await page.getByRole('heading', { level: 2, name: title }).waitFor();
}

async function waitForMail(address, predicate, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await messagesTo(address)).find((m) => predicate(messageText(m.raw), m.subject));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no matching mail to ${address} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const SECTIONS = [
  ['overview', 'Overview', 'Overview'],
  ['users', 'Users', 'Users'],
  ['posts', 'Posts', 'Posts'],
  ['contact', 'Contact messages', 'Contact messages'],
  ['reports', 'Reports', 'Reported posts'],
  ['notices', 'Notices & feedback', 'Notices and feedback'],
  ['banners', 'Banners', 'Banner notifications'],
  ['categories', 'Categories', 'Categories'],
  ['email', 'Email', 'Email'],
  ['money', 'Money', 'Plans, criteria, earnings and payouts'],
  ['locations', 'Locations', 'User locations'],
  ['export', 'Export', 'Export'],
  ['audit', 'Audit log', 'Audit log'],
  ['operations', 'Operations', 'Operations'],
];

describe('the administrators’ dashboard', () => {
  it('an administrator blocks a user from the Users section and that user’s open tab is signed out', async () => {
    const victim = await createAccount('blocked');
    const victimPage = await signIn(victim);
    const adminPage = await signIn(admin);
    await openSection(adminPage, 'users', 'Users');
    await adminPage.getByLabel('Search users').fill(victim.email);
    await adminPage.locator('#main').getByRole('button', { name: 'Search', exact: true }).click();
    const row = adminPage.locator('tbody tr', { hasText: victim.email });
    await row.getByRole('button', { name: `Block ${victim.fullName}` }).click();
    await row.getByRole('button', { name: `Unblock ${victim.fullName}` }).waitFor();
    await screenshot(adminPage, 'admin-users-blocked');

    // The server ends the blocked account's socket; the tab checks its session and signs out.
    await victimPage.getByText('Viewing as guest. Log in for full features.').waitFor();
    assert.equal(await victimPage.getByRole('button', { name: 'Account menu' }).count(), 0, 'no account menu any more');
    await victimPage.getByRole('link', { name: /log in/i }).first().waitFor();
    await screenshot(victimPage, 'blocked-user-signed-out');
    const { status } = await api('/auth/login', { method: 'POST', body: { email: victim.email, password: victim.password } });
    assert.equal(status, 403, 'a blocked account cannot log in again');
    await victimPage.context().close();
    await adminPage.context().close();
  });

  it('a report goes from the post page to the dashboard live, to the author, and comes back acknowledged live', async () => {
    const author = await createAccount('reported-author');
    const reader = await createAccount('reporter');
    const title = `Borrowed words ${Date.now().toString(36)}`;
    const { status, data } = await api('/post/post-create', {
      method: 'POST',
      token: author.token,
      body: { title, blocks: [{ id: 'p1', type: 'paragraph', data: { text: 'Words someone else wrote first.' } }] },
    });
    assert.equal(status, 201, JSON.stringify(data));
    const slug = data.post.slug;

    const adminPage = await signIn(admin);
    await openSection(adminPage, 'reports', 'Reported posts');
    const readerPage = await signIn(reader);
    await readerPage.goto(`/post/${slug}`);
    await readerPage.getByRole('heading', { level: 1, name: title }).waitFor();
    await readerPage.getByRole('button', { name: 'Report', exact: true }).click();
    const dialog = readerPage.getByRole('dialog', { name: 'Report this post' });
    await dialog.getByLabel('Copyright').check();
    await dialog.getByLabel('Details (optional)').fill('Copied from my blog.');
    await screenshot(readerPage, 'report-post-dialog');
    assert.deepEqual(await seriousAccessibilityViolations(readerPage), [], 'the report dialog');
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await readerPage.getByText('Thank you. The post was reported to the moderators.').waitFor();
    assert.equal(await readerPage.getByRole('button', { name: 'Reported', exact: true }).isDisabled(), true, 'once per post');

    // It arrives on the dashboard without a reload.
    const card = adminPage.locator('li.card', { hasText: title });
    await card.waitFor();
    assert.match(await card.textContent(), /Copied from my blog\./);
    await card.getByLabel('Forward to the author').check();
    await card.getByRole('button', { name: 'Mark reviewed' }).click();
    await card.locator('.chip', { hasText: 'forwarded' }).waitFor();
    await card.getByRole('button', { name: 'Send a notification to the author' }).click();
    await card.getByLabel('Subject').fill('About your post');
    await card.getByLabel('Message to the author').fill('Please credit the source.');
    await card.getByRole('button', { name: 'Send notification' }).click();
    await card.getByText('1 notification(s) sent to the author').waitFor();
    await screenshot(adminPage, 'admin-reports');

    // The author follows the notification to the acknowledgement page.
    const authorPage = await signIn(author);
    await authorPage.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
    await authorPage.getByText(/Please credit the source\./).first().click();
    await authorPage.waitForURL('**/acknowledge/**');
    await authorPage.getByRole('heading', { level: 1, name: 'A report on your post' }).waitFor();
    await authorPage.getByText('Please credit the source.').first().waitFor();
    assert.equal(await authorPage.getByText(reader.fullName).count(), 0, 'the reporter stays anonymous');
    assert.deepEqual(await seriousAccessibilityViolations(authorPage), [], 'the acknowledgement page');
    await authorPage.getByRole('button', { name: 'Acknowledge the report' }).click();
    await authorPage.getByRole('status').filter({ hasText: /acknowledged/i }).waitFor();
    await screenshot(authorPage, 'acknowledge-page');

    await card.locator('.chip', { hasText: 'acknowledged' }).waitFor();
    await screenshot(adminPage, 'admin-reports-acknowledged');
    for (const page of [adminPage, readerPage, authorPage]) await page.context().close();
  });

  it('a guest’s contact message arrives live; the reply is marked and reaches the guest by mail', async () => {
    const adminPage = await signIn(admin);
    await openSection(adminPage, 'contact', 'Contact messages');
    const guest = await newPage(browser);
    await guest.addInitScript(() => localStorage.setItem('userCookieConsent', 'false'));
    const email = uniqueEmail('guest');
    const subject = `Partnership ${Date.now().toString(36)}`;
    await guest.goto('/contact');
    await guest.getByLabel('Name').fill('Guest Writer');
    await guest.getByLabel('Email').fill(email);
    await guest.getByLabel('Subject').fill(subject);
    await guest.getByLabel('Message').fill('Could we write together?');
    await guest.getByRole('button', { name: 'Send message' }).click();
    await guest.getByRole('status').waitFor();
    await screenshot(guest, 'contact-sent');

    const card = adminPage.locator('li.card', { hasText: subject });
    await card.waitFor();
    await card.getByRole('button', { name: 'Reply' }).click();
    await card.getByLabel('Subject').fill(`Re: ${subject}`);
    await card.getByLabel('Message').fill('Gladly. Write to us at any time.');
    await card.getByRole('button', { name: /^Send/ }).click();
    await card.locator('.chip', { hasText: 'replied' }).waitFor();
    await screenshot(adminPage, 'admin-contact-replied');
    const mail = await waitForMail(email, (text) => text.includes('Gladly. Write to us at any time.'));
    assert.ok(mail.subject.includes(subject), mail.subject);
    await guest.context().close();
    await adminPage.context().close();
  });

  it('the workbook downloads as pressroom-export.xlsx and is a valid .xlsx', async () => {
    const adminPage = await signIn(admin);
    await openSection(adminPage, 'export', 'Export');
    const [download] = await Promise.all([adminPage.waitForEvent('download'), adminPage.getByRole('button', { name: 'Download workbook' }).click()]);
    assert.equal(download.suggestedFilename(), 'pressroom-export.xlsx');
    const file = await download.path();
    const bytes = await readFile(file);
    assert.equal(bytes.subarray(0, 4).toString('hex'), '504b0304', 'a zip container');
    const text = bytes.toString('latin1');
    for (const part of ['[Content_Types].xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml']) assert.ok(text.includes(part), `holds ${part}`);
    await adminPage.getByText(/^Saved pressroom-export\.xlsx/).waitFor();
    await adminPage.context().close();
  });

  it('the Operations section shows live figures that change when sockets connect and close', async () => {
    const adminPage = await signIn(admin);
    await openSection(adminPage, 'operations', 'Operations');
    const sockets = adminPage.locator('tr[data-node="cluster"] [data-figure="sockets"]');
    await sockets.waitFor({ timeout: 15_000 });
    const count = async () => Number((await sockets.textContent()).trim());
    const waitForCount = async (predicate, what) => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const n = await count();
        if (predicate(n)) return n;
        if (Date.now() > deadline) throw new Error(`${what}: still ${n}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    const before = await waitForCount((n) => n >= 1, 'the administrator’s own socket');
    const table = adminPage.getByRole('table', { name: 'Live figures' });
    assert.match(await table.textContent(), /Database/);
    assert.equal(await adminPage.locator('tr[data-node]:not([data-node="cluster"]) .health--ok').first().textContent(), 'ok');
    assert.match(await adminPage.getByRole('table', { name: 'Jobs' }).textContent(), /scheduled-publishing/);

    // Two more readers open the site: the figures follow within a few seconds.
    const readers = [await signIn(await createAccount('ops-a')), await signIn(await createAccount('ops-b'))];
    const during = await waitForCount((n) => n >= before + 2, 'after two readers connected');
    await screenshot(adminPage, 'admin-operations-live');
    for (const reader of readers) await reader.context().close();
    await waitForCount((n) => n <= during - 2, 'after the readers left');
    await adminPage.context().close();
  });

  it('a broadcast notice is queued, its progress shows live, and a reader gets it as a notice, never a banner', async () => {
    const reader = await createAccount('notice-reader');
    const readerPage = await signIn(reader);
    const adminPage = await signIn(admin);
    await openSection(adminPage, 'notices', 'Notices and feedback');
    const content = `Maintenance window ${Date.now()}`;
    await adminPage.locator('#broadcast-content').fill(content);
    await adminPage.getByRole('button', { name: 'Broadcast', exact: true }).click();
    await adminPage.getByText(/^The notice is on its way to \d+ users?\.$/).waitFor();
    // The job's progress arrives over adminRoom until it is done.
    await adminPage.getByTestId('job-progress').getByText(/^Broadcasting the notice: done — Notification sent to \d+ users$/).waitFor({ timeout: 30_000 });
    await screenshot(adminPage, 'admin-broadcast-done');
    // The reader's open tab announces it as a notice; no banner shows it.
    await readerPage.getByText(`Notice from the administrators: ${content}`).waitFor();
    assert.equal(await readerPage.getByText(content, { exact: true }).count(), 0, 'not shown as a banner');
    await screenshot(readerPage, 'reader-broadcast-notice');
    await readerPage.context().close();
    await adminPage.context().close();
  });

  it('deleting a post asks in a dialog: Escape keeps the post and gives focus back, confirming deletes it', async () => {
    const author = await createAccount('doomed-author');
    const title = `Doomed draft ${Date.now().toString(36)}`;
    const created = await api('/post/post-create', {
      method: 'POST',
      token: author.token,
      body: { title, blocks: [{ id: 'p1', type: 'paragraph', data: { text: 'Soon gone.' } }] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.data));
    const adminPage = await signIn(admin);
    await openSection(adminPage, 'posts', 'Posts');
    await adminPage.getByLabel('Search posts').fill(title);
    await adminPage.locator('#main').getByRole('button', { name: 'Search', exact: true }).click();
    const row = adminPage.locator('tbody tr', { hasText: title });
    const remove = row.getByRole('button', { name: `Delete “${title}”` });
    await remove.click();
    const dialog = adminPage.getByRole('dialog', { name: `Delete “${title}”?` });
    await dialog.waitFor();
    assert.equal(await dialog.getAttribute('aria-modal'), 'true');
    assert.equal(await dialog.evaluate((el) => el.contains(document.activeElement)), true, 'focus is inside the dialog');
    await screenshot(adminPage, 'admin-posts-confirm-delete');
    assert.deepEqual(await seriousAccessibilityViolations(adminPage), [], 'the confirmation dialog');
    await adminPage.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await remove.evaluate((el) => el === document.activeElement), true, 'focus is back on Delete');
    assert.equal((await api(`/post/${created.data.post.slug}`)).status, 200, 'Escape deleted nothing');

    await remove.click();
    await dialog.getByRole('button', { name: 'Delete post' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.waitFor({ state: 'detached' });
    assert.equal((await api(`/post/${created.data.post.slug}`)).status, 404, 'the post is gone');
    await adminPage.context().close();
  });

  it('the default categories are added from the Categories section', async () => {
    const adminPage = await signIn(admin);
    await openSection(adminPage, 'categories', 'Categories');
    await adminPage.getByRole('button', { name: 'Add the default categories' }).click();
    await adminPage.getByRole('status').filter({ hasText: /categor/i }).waitFor();
    const heading = await adminPage.getByRole('heading', { name: /^All categories \(\d+\)$/ }).textContent();
    assert.ok(Number(/\((\d+)\)/.exec(heading)[1]) >= 16, heading);
    await adminPage.getByRole('list', { name: 'Categories' }).getByText('Technology', { exact: true }).waitFor();
    await screenshot(adminPage, 'admin-categories-seeded');
    await adminPage.context().close();
  });

  it('every section opens from the navigation, is photographed and has no serious accessibility violation', async () => {
    const adminPage = await signIn(admin);
    await adminPage.goto('/admin');
    const nav = adminPage.getByRole('navigation', { name: 'Dashboard sections' });
    for (const [id, label, title] of SECTIONS) {
      await nav.getByRole('link', { name: new RegExp(`^${label}`) }).click();
      await adminPage.getByRole('heading', { level: 2, name: title }).waitFor();
      await adminPage.waitForLoadState('networkidle').catch(() => {});
      await adminPage.locator('[role="status"]', { hasText: /^Loading\.\.\.$/ }).waitFor({ state: 'detached' }).catch(() => {});
      await screenshot(adminPage, `admin-${id}`);
      assert.deepEqual(await seriousAccessibilityViolations(adminPage), [], `the ${title} section`);
      assert.equal(new URL(adminPage.url()).searchParams.get('section') ?? 'overview', id);
    }
    // Keyboard: the navigation's links are reachable with Tab and say which one is current.
    const current = adminPage.locator('[aria-current="page"]');
    assert.equal((await current.textContent()).trim(), 'Operations');
    assert.deepEqual(adminPage.consoleErrors.filter((e) => !/Failed to load resource/.test(e)), []);
    await adminPage.context().close();
  });
});
