// A keyboard-only walk through the app in Chromium (no mouse after the first address is typed):
// sign up, verify, search and open a result with the arrow keys, like and comment, write and
// publish a post, open and close the feedback dialog (focus comes back), log out. At phone width:
// the header's search dialog gives focus back to its Search button however it closes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  api,
  createAccount,
  launch,
  newPage,
  screenshot,
  seriousAccessibilityViolations,
  uniqueEmail,
  waitForCode,
  waitForShell,
} from './helpers.js';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Presses Tab (Shift+Tab with `back`) until `locator` has focus; fails after `max` presses. */
async function tabTo(page, locator, { max = 120, back = false } = {}) {
  await locator.first().waitFor();
  for (let i = 0; i < max; i += 1) {
    if (await locator.first().evaluate((el) => el === document.activeElement || el.contains(document.activeElement))) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 160));
  throw new Error(`Tab never reached ${locator}; focus is on ${focused}`);
}

async function focusedText(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    return (el?.getAttribute('aria-label') || el?.textContent || '').trim();
  });
}

describe('the app by keyboard alone', () => {
  it('signs up, searches and opens a result with the arrow keys, likes, comments, writes and publishes, gives feedback, and logs out', async () => {
    // Arranged beforehand: a post by someone else, with a word nobody's name contains.
    const word = `Quokka${Date.now().toString(36)}`;
    const other = await createAccount('keyboard-author');
    const created = await api('/post/post-create', {
      method: 'POST',
      token: other.token,
      body: { title: `${word} field guide`, status: 'published', blocks: [{ id: 'p1', type: 'paragraph', data: { text: 'Small and cheerful.' } }] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.data));
    const target = created.data.post;

    const page = await newPage(browser);
    await page.addInitScript(() => localStorage.setItem('userCookieConsent', 'false'));
    const browserDialogs = [];
    page.on('dialog', (d) => {
      browserDialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
    await page.goto('/signup');

    // ── Sign up and verify ───────────────────────────────────────────────────────────────
    const email = uniqueEmail('keyboard');
    await tabTo(page, page.getByLabel('Full name'));
    await page.keyboard.type('Kay Board');
    await page.keyboard.press('Tab');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('correct horse battery');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/verify');
    const code = await waitForCode(email);
    await tabTo(page, page.getByLabel('Verification code'));
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await page.getByText('Email verified successfully').waitFor();
    await tabTo(page, page.getByRole('link', { name: 'Continue' }));
    await page.keyboard.press('Enter');
    await page.waitForURL('**/select-category').catch(async (e) => {
      await screenshot(page, 'keyboard-debug');
      throw new Error(`${e.message} at ${page.url()}`);
    });
    await tabTo(page, page.getByRole('button', { name: 'Skip for now' }));
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/');
    await waitForShell(page);

    // ── Skip link, then search with the arrow keys ──────────────────────────────────────
    await page.keyboard.press('Tab');
    assert.equal(await focusedText(page), 'Skip to content', 'the first Tab reaches "Skip to content"');
    const search = page.getByRole('combobox', { name: 'Search' });
    await tabTo(page, search);
    await page.keyboard.type(word);
    const option = page.getByRole('option', { name: `${word} field guide` });
    await option.waitFor();
    await page.keyboard.press('ArrowDown');
    assert.equal(await search.getAttribute('aria-activedescendant'), await option.getAttribute('id'), 'the highlighted result is named');
    assert.equal(await option.getAttribute('aria-selected'), 'true');
    await screenshot(page, 'keyboard-search');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/post/${target.slug}`);
    await page.getByRole('heading', { level: 1, name: `${word} field guide` }).waitFor();

    // ── Like and comment ────────────────────────────────────────────────────────────────
    const like = page.getByRole('button', { name: /^Like/ }).first();
    await tabTo(page, like);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => [...document.querySelectorAll('button[aria-pressed="true"]')].some((b) => /like/i.test(b.getAttribute('aria-label') || b.textContent)));
    const commentBox = page.getByRole('textbox', { name: /comment/i }).first();
    await tabTo(page, commentBox);
    await page.keyboard.type('Typed without a mouse.');
    await page.keyboard.press('Tab');
    assert.match(await focusedText(page), /comment|post|send/i, 'Tab goes on to the comment button');
    await page.keyboard.press('Enter');
    await page.getByTestId('comment').filter({ hasText: 'Typed without a mouse.' }).waitFor();

    // ── Write and publish ───────────────────────────────────────────────────────────────
    await tabTo(page, page.getByRole('link', { name: 'Write' }), { back: true });
    await page.keyboard.press('Enter');
    await page.waitForURL('**/createPost');
    await page.locator('.ce-paragraph').first().waitFor();
    const title = `Keyboard notes ${Date.now().toString(36)}`;
    await tabTo(page, page.getByLabel('Title'));
    await page.keyboard.type(title);
    await tabTo(page, page.locator('.ce-paragraph').first());
    await page.keyboard.type('Written with the keyboard alone.');
    // The status radios: Tab reaches the checked one (Save as draft), an arrow key picks the next.
    await tabTo(page, page.getByLabel('Save as draft'));
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.getByLabel('Publish now').isChecked(), true);
    await tabTo(page, page.getByRole('button', { name: 'Publish', exact: true }));
    await screenshot(page, 'keyboard-editor');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/post/**');
    await page.getByRole('heading', { level: 1, name: title }).waitFor();

    // ── The feedback dialog: focus moves in, Escape closes, focus comes back ─────────────
    const giveFeedback = page.getByRole('button', { name: 'Give feedback' });
    await tabTo(page, giveFeedback, { max: 200 });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    assert.equal(await dialog.evaluate((el) => el.contains(document.activeElement)), true, 'focus moved into the dialog');
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      assert.equal(await dialog.evaluate((el) => el.contains(document.activeElement)), true, 'Tab stays inside the dialog');
    }
    await screenshot(page, 'keyboard-feedback');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await giveFeedback.evaluate((el) => el === document.activeElement), true, 'focus is back on Give feedback');

    // ── Log out through the account menu ────────────────────────────────────────────────
    await tabTo(page, page.getByRole('button', { name: 'Account menu' }), { back: true, max: 200 });
    await page.keyboard.press('Enter');
    assert.equal(await focusedText(page), 'Studio', 'the menu opens on its first item');
    await page.keyboard.press('End');
    assert.equal(await focusedText(page), 'Logout');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/login');
    assert.deepEqual(browserDialogs, [], 'no browser dialog (alert, confirm) on the way');
    assert.deepEqual(page.consoleErrors.filter((e) => !/Failed to load resource/.test(e)), []);
    await page.context().close();
  });
});

describe('the search dialog at phone width (390 px)', () => {
  it('opens from the Search button with Enter, keeps focus inside, and gives focus back to the button on Escape, Close and a press outside', async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await page.addInitScript(() => localStorage.setItem('userCookieConsent', 'false'));
    await page.goto('/about');
    await waitForShell(page);
    const openSearch = page.getByRole('button', { name: 'Open search', exact: true });
    const dialog = page.getByRole('dialog', { name: 'Search' });
    const focusedIsOpenSearch = () => openSearch.evaluate((el) => el === document.activeElement);
    const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName);

    // Escape.
    await tabTo(page, openSearch);
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    assert.equal(await dialog.evaluate((el) => el.contains(document.activeElement)), true, 'focus moved into the dialog');
    assert.equal(await page.getByRole('combobox', { name: 'Search' }).evaluate((el) => el === document.activeElement), true, 'on the search field');
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press('Tab');
      assert.equal(await dialog.evaluate((el) => el.contains(document.activeElement)), true, 'Tab stays inside the dialog');
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await focusedIsOpenSearch(), true, `focus is back on the Search button, not on ${await focusedName()}`);
    assert.equal(await focusedName(), 'Open search');
    await screenshot(page, 'search-escape-390');
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'the page after the search dialog closed');

    // Its Close button, from the keyboard.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await tabTo(page, dialog.getByRole('button', { name: 'Close' }), { back: true, max: 10 });
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await focusedIsOpenSearch(), true, `Close: focus is back on the Search button, not on ${await focusedName()}`);

    // A press outside it (above the dialog, on the dimmed page).
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.mouse.click(195, 20);
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await focusedIsOpenSearch(), true, `a press outside: focus is back on the Search button, not on ${await focusedName()}`);

    assert.deepEqual(page.consoleErrors.filter((e) => !/Failed to load resource/.test(e)), []);
    await page.context().close();
  });
});
