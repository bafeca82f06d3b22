// New posts reaching readers, in Chromium against the real server: the bell menu beside Follow
// on a profile changes how a follower hears of the author's new posts (and the choice shows in
// Settings), and a guest subscribes to an author by email from the end of a post (a confirmation
// mail arrives). Every screen passes axe-core without serious or critical violations.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, assertAccessible, createAccount, launch, messagesTo, messageText, newPage, screenshot, signedInPage, uniqueEmail, waitForShell } from './helpers.js';

const RUN = Date.now().toString(36);

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('new posts', () => {
  let reader;
  let author;

  before(async () => {
    reader = await createAccount('reader');
    author = await createAccount('author');
    const { status } = await api(`/follow/${author.id}`, { method: 'POST', token: reader.token });
    assert.ok(status < 300);
  });

  it('the bell beside Follow on a profile changes the alerts, by mouse and by keyboard, and Settings shows them', async () => {
    const page = await signedInPage(browser, reader);
    await page.goto(`/author-profile/${author.id}`);
    const header = page.getByTestId('profile-header');
    await header.waitFor();
    const bell = header.getByTestId('alerts-bell');
    await bell.waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid="alerts-bell"]')?.disabled);
    await bell.click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    assert.equal(await menu.getByRole('menuitemradio', { name: /All new posts/ }).getAttribute('aria-checked'), 'true');
    await assertAccessible(page, 'alerts menu open');
    await screenshot(page, 'alerts-menu-open');
    const saved = page.waitForResponse((r) => r.url().endsWith(`/api/follow/alerts/${author.id}`) && r.request().method() === 'PUT');
    await menu.getByRole('menuitemradio', { name: /Daily digest/ }).click();
    assert.equal((await saved).status(), 200);
    await menu.waitFor({ state: 'detached' });
    let status = await api(`/follow/status/${author.id}`, { token: reader.token });
    assert.equal(status.data.alerts, 'digest');

    // The keyboard: Enter opens on the current choice, the arrows move, Enter picks.
    await bell.focus();
    await page.keyboard.press('Enter');
    await menu.waitFor();
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    assert.equal(focused, 'alerts-digest');
    await page.keyboard.press('ArrowDown');
    const off = page.waitForResponse((r) => r.url().endsWith(`/api/follow/alerts/${author.id}`) && r.request().method() === 'PUT');
    await page.keyboard.press('Enter');
    assert.equal((await off).status(), 200);
    status = await api(`/follow/status/${author.id}`, { token: reader.token });
    assert.equal(status.data.alerts, 'off');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'alerts-bell', 'focus goes back to the bell');
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });

    await page.goto('/user-setting#new-posts');
    const list = page.getByTestId('followed-authors');
    await list.waitFor();
    const select = list.getByLabel(/New posts from/);
    assert.equal(await select.inputValue(), 'off');
    const again = page.waitForResponse((r) => r.url().endsWith(`/api/follow/alerts/${author.id}`) && r.request().method() === 'PUT');
    await select.selectOption('instant');
    assert.equal((await again).status(), 200);
    status = await api(`/follow/status/${author.id}`, { token: reader.token });
    assert.equal(status.data.alerts, 'instant');
    await page.locator('#new-posts').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-followed-authors');
    await assertAccessible(page, 'settings with followed authors');
    await page.context().close();
  });

  it('a guest subscribes to the author by email from the end of a post and gets a confirmation link', async () => {
    const { status, data } = await api('/post/post-create', {
      method: 'POST',
      token: author.token,
      body: { title: `Letters from the coast ${RUN}`, blocks: [{ id: 'b1', type: 'paragraph', data: { text: 'Salt and wind.' } }] },
    });
    assert.ok(status < 300, JSON.stringify(data));
    const page = await newPage(browser);
    await page.addInitScript(() => localStorage.setItem('userCookieConsent', 'true'));
    await page.goto(`/post/${data.post.slug}`);
    await waitForShell(page);
    const form = page.getByTestId('newsletter-form');
    await form.waitFor();
    const address = uniqueEmail('guest');
    await form.getByLabel('Your email address').fill(address);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await form.getByRole('status').filter({ hasText: /Check your inbox/ }).waitFor();
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, 'guest-newsletter-form');
    await assertAccessible(page, 'post page with the email form');
    const deadline = Date.now() + 15_000;
    let mails = [];
    while (mails.length === 0 && Date.now() < deadline) {
      mails = await messagesTo(address);
      if (mails.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(mails.length, 1, 'one confirmation mail');
    assert.match(messageText(mails[0].raw), /newsletter\/confirm\?token=/);
    await page.context().close();
  });
});
