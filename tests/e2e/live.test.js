// Live features in Chromium: an administrator's notice reaches the bell and its dropdown without
// a reload, and a feedback prompt opens the feedback modal.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createAccount, createAdmin, launch, logInThroughForm, newPage, screenshot, waitForShell } from './helpers.js';

let browser;
let admin;
before(async () => {
  browser = await launch();
  admin = await createAdmin();
});
after(async () => {
  await browser?.close();
});

async function signedInPage(tag) {
  const account = await createAccount(tag);
  const page = await newPage(browser);
  await page.goto('/login');
  await logInThroughForm(page, account);
  await page.waitForURL((url) => url.pathname === '/');
  await waitForShell(page);
  await page.getByRole('button', { name: 'Notifications' }).waitFor();
  // The socket is connected (and has asked to join the user's room) before anything is sent.
  await page.locator('[data-testid="online-indicator"][data-socket-status="connected"]').waitFor();
  await page.waitForTimeout(300);
  return { account, page };
}

describe('live notifications and feedback', () => {
  it("an administrator's notice raises the unread badge and shows as 'Admin: …' in the dropdown", async () => {
    const { account, page } = await signedInPage('notified');
    const content = `Welcome aboard ${Date.now()}`;
    const { status, data } = await api('/notification/admin', {
      method: 'POST',
      token: admin.token,
      body: { userId: account.id, content },
    });
    assert.ok(status < 300, `notice answered ${status} ${JSON.stringify(data)}`);

    const badge = page.getByTestId('unread-badge');
    await badge.waitFor();
    assert.equal((await badge.textContent()).trim(), '1');
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    const item = page.getByText(`Admin: ${content}`, { exact: true });
    await item.waitFor();
    await screenshot(page, 'notifications');
    await item.click();
    await page.waitForURL('**/message-box?type=admin');
    await badge.waitFor({ state: 'detached' });
    const { data: count } = await api('/notification/unread-count', { token: account.token });
    assert.equal(Number(count.count), 0, 'opening the notice marked it read on the server');
    await page.context().close();
  });

  it('a feedback prompt opens the modal; a rating and text send it, then it thanks and closes', async () => {
    const { account, page } = await signedInPage('feedback');
    const { status } = await api(`/user/feedback/manual/${account.id}`, {
      method: 'POST',
      token: admin.token,
      body: { message: 'How is Pressroom working for you?' },
    });
    assert.ok(status < 300, `prompt answered ${status}`);
    const dialog = page.getByRole('dialog', { name: 'How is Pressroom working for you?' });
    await dialog.waitFor();
    const submit = dialog.getByRole('button', { name: 'Submit' });
    assert.equal(await submit.isDisabled(), true);
    await dialog.getByRole('button', { name: '4 stars' }).click();
    await dialog.getByLabel('Your feedback').fill('Fast and friendly.');
    await screenshot(page, 'feedback');
    const sent = page.waitForResponse((r) => r.url().endsWith('/api/user/feedback/submit'));
    await submit.click();
    assert.ok((await sent).ok());
    await dialog.getByText('Thank you for your feedback!').waitFor();
    await dialog.waitFor({ state: 'detached', timeout: 5_000 });
    await page.context().close();
  });
});
