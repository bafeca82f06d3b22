// The account is its owner's, in Chromium against the real server: two-factor sign-in turned on
// by reading the secret the settings page shows beside its QR code, a sign-in with a code, the
// sessions list, a data export downloaded, and a deletion scheduled then cancelled by signing in.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createAccount, launch, logInThroughForm, newPage, screenshot, signedInPage, waitForShell } from './helpers.js';

const PYTHON = process.env.PRESSROOM_TEST_PYTHON || `${process.env.HOME}/.cache/pressroom/venv/bin/python`;

/** The TOTP code of `secret` at `unix` seconds, computed by pyotp (an independent implementation). */
function totp(secret, unix = Math.floor(Date.now() / 1000)) {
  return execFileSync(PYTHON, ['-c', 'import sys, pyotp; print(pyotp.TOTP(sys.argv[1]).at(int(sys.argv[2])))', secret, String(unix)])
    .toString()
    .trim();
}

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('your account', () => {
  it('turns on two-factor sign-in, signs in with a code, downloads the data and cancels a deletion by signing in', async () => {
    const account = await createAccount('owner');
    const page = await signedInPage(browser, account);

    // Two-factor sign-in: the QR code and its secret as text.
    await page.goto('/user-setting#security');
    await waitForShell(page);
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent()).trim();
    assert.match(secret, /^[A-Z2-7]{32,}$/);
    await screenshot(page, 'two-factor-setup');
    const enabledAt = Math.floor(Date.now() / 1000);
    await page.getByLabel('6-digit code').fill(totp(secret, enabledAt));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByTestId('recovery-codes').locator('code');
    await codes.first().waitFor();
    assert.equal(await codes.count(), 10);
    const recovery = (await codes.nth(0).textContent()).trim();
    await screenshot(page, 'two-factor-recovery-codes');
    await page.getByRole('button', { name: 'I saved them' }).click();
    await page.getByText(/10 recovery codes left/).waitFor();

    // Signing in elsewhere asks for the code.
    const other = await newPage(browser);
    await other.goto('/login');
    await logInThroughForm(other, account);
    await other.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await screenshot(other, 'two-factor-code-step');
    // The next step's code: the one used to turn it on cannot be used again.
    await other.getByLabel('Code').fill(totp(secret, enabledAt + 30));
    await other.getByRole('button', { name: 'Verify' }).click();
    await other.waitForURL((url) => url.pathname === '/');
    await waitForShell(other);

    // Every sign-in is listed: the API signup, this page and the other one (newest first); the
    // list is read again on coming to #sessions, so the other page's sign-in is there. This page
    // signs the other one out.
    await page.goto('/user-setting#sessions');
    const sessions = page.getByRole('list', { name: 'Signed-in sessions' }).locator('li');
    await sessions.nth(2).waitFor();
    assert.equal(await sessions.count(), 3);
    await page.getByRole('list', { name: 'Signed-in sessions' }).getByText('This device', { exact: true }).waitFor();
    await screenshot(page, 'sessions');
    const newest = sessions.nth(0);
    assert.equal(await newest.getByText('This device').count(), 0);
    await newest.getByRole('button', { name: /^Sign out/ }).click();
    await page.getByText(/Signed out of/).waitFor();
    assert.equal(await sessions.count(), 2);
    await other.context().close();

    // A copy of the data, downloaded as a ZIP.
    await page.goto('/user-setting#your-data');
    await page.getByRole('button', { name: 'Download my data' }).click();
    const link = page.getByRole('link', { name: 'Download ZIP' });
    await link.waitFor({ timeout: 60_000 });
    await screenshot(page, 'data-export-ready');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    assert.match(download.suggestedFilename(), /^pressroom-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = fs.readFileSync(await download.path());
    assert.equal(zip.subarray(0, 2).toString(), 'PK');

    // Deleting the account: scheduled, signed out, then cancelled by signing in again.
    await page.goto('/user-setting#leave');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Password').fill(account.password);
    await screenshot(page, 'delete-account-dialog');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL('**/login');
    await page.getByText(/Your account will be deleted on/).waitFor();
    await logInThroughForm(page, account);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await page.getByLabel('Code').fill(recovery);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Welcome back. Your account will not be deleted.').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    await screenshot(page, 'deletion-cancelled');
    await page.context().close();
  });
});
