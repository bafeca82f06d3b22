// Banner notices live in Chromium: an administrator's banner appears without a reload, Dismiss
// hides it (also in the visitor's other tab), and deactivation hides it everywhere.
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

async function createBanner(title, extra = {}) {
  const { status, data } = await api('/bannerNotification/create', {
    method: 'POST',
    token: admin.token,
    body: { title, message: `${title}: details`, region: 'global', link: 'https://example.com/news', ...extra },
  });
  assert.ok(status < 300, `create answered ${status} ${JSON.stringify(data)}`);
  return data.notification;
}

describe('banner notices', () => {
  it('appear live, keep a link that opens in a new tab, and stay dismissed across tabs and reloads', async () => {
    const account = await createAccount('banner');
    const page = await newPage(browser);
    await page.goto('/login');
    await logInThroughForm(page, account);
    await page.waitForURL((url) => url.pathname === '/');
    await waitForShell(page);
    const second = await page.context().newPage();
    await second.goto('/about');
    await waitForShell(second);

    const title = `Maintenance ${Date.now()}`;
    const banner = await createBanner(title);
    const notice = page.getByTestId('banner-notice');
    await notice.getByText(title, { exact: true }).waitFor();
    await second.getByTestId('banner-notice').getByText(title, { exact: true }).waitFor();
    const link = notice.getByRole('link');
    assert.equal(await link.getAttribute('href'), 'https://example.com/news');
    assert.equal(await link.getAttribute('target'), '_blank');
    await screenshot(page, 'banner');

    const dismissed = page.waitForResponse((r) => r.url().includes(`/api/bannerNotification/dismiss/${banner._id}`));
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    assert.ok((await dismissed).ok());
    await page.getByText(title, { exact: true }).waitFor({ state: 'detached' });
    await second.getByText(title, { exact: true }).waitFor({ state: 'detached' });
    await page.reload();
    await waitForShell(page);
    await page.waitForTimeout(500);
    assert.equal(await page.getByText(title, { exact: true }).count(), 0, 'a dismissed banner stays hidden after a reload');
    await page.context().close();
  });

  it('disappear live when an administrator deactivates them', async () => {
    const page = await newPage(browser);
    await page.goto('/');
    await waitForShell(page);
    const title = `Flash sale ${Date.now()}`;
    const banner = await createBanner(title);
    await page.getByTestId('banner-notice').getByText(title, { exact: true }).waitFor();
    const { status } = await api(`/bannerNotification/deactivate/${banner._id}`, { method: 'PATCH', token: admin.token, body: {} });
    assert.ok(status < 300, `deactivate answered ${status}`);
    await page.getByText(title, { exact: true }).waitFor({ state: 'detached' });
    await page.context().close();
  });

  it("hide when they expire, with the toast 'Banner expired.'", async () => {
    const page = await newPage(browser);
    await page.goto('/');
    await waitForShell(page);
    const title = `Short notice ${Date.now()}`;
    await createBanner(title, { expiresAt: new Date(Date.now() + 6_000).toISOString(), sticky: false });
    await page.getByTestId('banner-notice').getByText(title, { exact: true }).waitFor();
    await page.getByText('Banner expired.').waitFor({ timeout: 20_000 });
    assert.equal(await page.getByText(title, { exact: true }).count(), 0);
    await page.context().close();
  });
  it('a banner expiring years ahead (2030-01-01, beyond setTimeout\'s 2^31 - 1 ms) is shown, live and after a reload, and stays', async () => {
    const page = await newPage(browser);
    await page.goto('/');
    await waitForShell(page);
    const title = `Long notice ${Date.now()}`;
    const banner = await createBanner(title, { expiresAt: '2030-01-01T00:00:00.000Z', sticky: false });
    const shown = page.getByTestId('banner-notice').getByText(title, { exact: true });
    await shown.waitFor();
    await page.waitForTimeout(2_000);
    assert.equal(await shown.count(), 1, 'still shown live');
    await page.reload();
    await waitForShell(page);
    await shown.waitFor();
    await page.waitForTimeout(2_000);
    assert.equal(await shown.count(), 1, 'still shown after a reload');
    assert.equal(await page.getByText('Banner expired.').count(), 0);
    await screenshot(page, 'banner-long-expiry');
    await api(`/bannerNotification/deactivate/${banner._id}`, { method: 'PATCH', token: admin.token, body: {} });
    await page.context().close();
  });
});
