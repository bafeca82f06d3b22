// Sign up, verify with the mailed code, log out, log in, and the redirect back to where a
// visitor came from — in Chromium against the real server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccount, launch, logInThroughForm, messagesTo, newPage, screenshot, uniqueEmail, waitForCode, waitForShell } from './helpers.js';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('accounts', () => {
  it('signs up, verifies the email with the mailed code, logs out and logs in again', async () => {
    const page = await newPage(browser);
    const email = uniqueEmail('signup');
    const password = 'correct horse battery';

    await page.goto('/signup');
    await screenshot(page, 'signup');
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByLabel('Password').press('Enter');

    await page.waitForURL('**/verify');
    await waitForShell(page);
    assert.ok(await page.evaluate(() => localStorage.getItem('jwt')), 'the token is kept under jwt');
    const code = await waitForCode(email);
    assert.match(code, /^\d{6}$/);
    await screenshot(page, 'verify');
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Verify Email' }).click();
    await page.getByRole('link', { name: 'Continue' }).waitFor();
    await page.getByRole('link', { name: 'Continue' }).click();
    // A new account picks the categories it likes, then goes on to the main page.
    await page.waitForURL('**/select-category');
    await page.getByRole('heading', { name: 'Choose what you like to read' }).waitFor();
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    assert.equal(await page.getByTestId('unverified-bar').count(), 0, 'the unverified bar is gone');

    await page.getByRole('button', { name: 'Account menu' }).click();
    await screenshot(page, 'avatar-menu');
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    assert.equal(await page.evaluate(() => localStorage.getItem('jwt')), null, 'logout forgets the token');

    await logInThroughForm(page, { email, password });
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    assert.equal(await page.getByTestId('unverified-bar').count(), 0, 'still verified after logging in again');
    await screenshot(page, 'home-signed-in');
    await page.context().close();
  });

  it('shows unverified users the yellow bar; Verify Now sends a code and verifying removes the bar', async () => {
    const account = await createAccount('verifynow');
    const page = await newPage(browser);
    await page.goto('/login');
    await logInThroughForm(page, account);
    await page.waitForURL((url) => url.pathname === '/');
    const bar = page.getByTestId('unverified-bar');
    await bar.waitFor();
    assert.equal(
      (await bar.textContent()).replace('Verify Now', '').trim(),
      'Your email is not verified. Please verify your account to continue enjoying all features.',
    );
    await bar.getByRole('link', { name: 'Verify Now' }).click();
    await page.waitForURL('**/verify');
    const before = (await messagesTo(account.email)).length;
    await page.getByRole('button', { name: 'Send Code' }).click();
    const code = await waitForCode(account.email, { after: before });
    await page.getByLabel('Verification code').fill(code);
    await page.getByLabel('Verification code').press('Enter');
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    assert.equal(await page.getByTestId('unverified-bar').count(), 0);
    await page.context().close();
  });

  it('shows the server message for a wrong password and keeps the form usable', async () => {
    const account = await createAccount('wrongpw');
    const page = await newPage(browser);
    await page.goto('/login');
    await logInThroughForm(page, { email: account.email, password: 'not the password' });
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.ok((await alert.textContent()).trim().length > 0);
    assert.equal(await page.getByRole('button', { name: 'Log in' }).isEnabled(), true);
    await screenshot(page, 'login-error');
    await page.context().close();
  });

  it('sends a visitor of a members-only page to /login and back there afterwards', async () => {
    const account = await createAccount('redirect');
    const page = await newPage(browser);
    await page.goto('/bookmark');
    await page.waitForURL('**/login');
    await logInThroughForm(page, account);
    await page.waitForURL('**/bookmark');
    await page.getByRole('heading', { name: 'Bookmarks' }).waitFor();

    // A signed-in visitor who opens /login is sent on at once.
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/');
    await page.context().close();
  });

  it('resets a forgotten password with the mailed code', async () => {
    const account = await createAccount('reset');
    const page = await newPage(browser);
    await page.goto('/reset-password');
    const before = (await messagesTo(account.email)).length;
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Send Code' }).click();
    const code = await waitForCode(account.email, { after: before });
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await page.getByLabel('New password', { exact: true }).fill('a brand new secret');
    await page.getByLabel('Confirm new password').fill('a brand new secret');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('link', { name: 'Log in' }).click();
    await logInThroughForm(page, { email: account.email, password: 'a brand new secret' });
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    await page.context().close();
  });
});
