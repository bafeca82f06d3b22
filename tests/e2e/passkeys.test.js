// Passkeys in Chromium, with its virtual authenticator (the DevTools protocol's WebAuthn domain)
// standing in for the device. A browser refuses an IP address as a WebAuthn relying party, so this
// file starts a server of its own whose public address is http://localhost:PORT (the suite's is
// http://127.0.0.1:PORT), over the suite's database. A person adds a passkey named "Laptop" in
// Settings → Security (confirming their password first: their sign-in is no longer recent), signs
// out and signs in with "Sign in with a passkey" without typing an email, confirms it's them with
// the passkey (then a second passkey on the same device is refused: it already has one), is
// refused when the device cannot verify them (and stays signed out), is signed in by picking the
// passkey among the email field's suggestions, and removes it after confirming with it. The
// settings page is checked with axe-core.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MongoClient, ObjectId } from 'mongodb';
import { api, createAccount, launch, logInThroughForm, newPage, screenshot, seriousAccessibilityViolations, startOwnServer, waitForShell } from './helpers.js';

const DB_URI = process.env.PRESSROOM_TEST_MONGODB_URI || process.env.MONGODB_URI;
const DB_NAME = process.env.PRESSROOM_SUITE_DB || `passkeys_${Date.now()}`;

let browser;
let server;
let mongo;
before(async () => {
  server = await startOwnServer({ name: 'passkeys', dbName: DB_NAME });
  mongo = await MongoClient.connect(DB_URI);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await mongo?.close();
  await server?.stop();
});

/**
 * The account's sessions signed in (and last confirmed) eleven minutes ago: past the ten minutes
 * of step-up, so what needs a recent confirmation asks for one.
 */
async function makeSignInOld(userId) {
  const longAgo = new Date(Date.now() - 11 * 60_000);
  await mongo
    .db(DB_NAME)
    .collection('sessions')
    .updateMany({ userId: new ObjectId(userId) }, { $set: { createdAt: longAgo }, $unset: { reauthAt: '' } });
}

/**
 * A page on this file's server with a virtual platform authenticator that verifies its user.
 * While its local storage holds `e2e-no-autofill`, the browser offers no passkeys among the email
 * field's suggestions: the virtual authenticator would take that offer at once, before the
 * button could be used.
 */
async function pageWithAuthenticator() {
  const page = await newPage(browser, { baseURL: server.url });
  await page.addInitScript(() => {
    localStorage.setItem('userCookieConsent', 'true');
    if (localStorage.getItem('e2e-no-autofill') && window.PublicKeyCredential) {
      window.PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    }
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
      // A passkey its provider syncs (backed up), as most platform passkeys are.
      defaultBackupEligibility: true,
      defaultBackupState: true,
    },
  });
  return { page, cdp, authenticatorId };
}

async function logOut(page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
  assert.equal(await page.evaluate(() => localStorage.getItem('jwt')), null);
  // A fresh sign-in page: the one logging out lands on may remember the settings page to return
  // to (two redirects race there), and this test expects the home page after signing in. Loading
  // the same address again keeps the page's history state (where that address is kept), so the
  // state is cleared first.
  await page.evaluate(() => window.history.replaceState(null, '', '/login'));
  await page.goto('/login');
}

/** Who the page is signed in as, by its own token. */
async function signedInEmail(page) {
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  if (!token) return null;
  const { status, data } = await api('/auth/check', { token, base: server.url });
  return status === 200 ? data.email : null;
}

async function openSecurity(page) {
  await page.goto('/user-setting#security');
  await waitForShell(page);
  await page.getByRole('heading', { name: 'Passkeys', level: 3 }).waitFor();
}

describe('passkeys', () => {
  it('adds a passkey, signs in with it without an email, confirms with it, is refused without user verification, and removes it', async () => {
    const account = await createAccount('passkey', 'correct horse battery', { base: server.url });
    const { page, cdp, authenticatorId } = await pageWithAuthenticator();
    await page.goto('/login');
    await page.evaluate(() => localStorage.setItem('e2e-no-autofill', 'yes'));
    await page.reload();
    await logInThroughForm(page, account);
    await page.waitForURL((url) => url.pathname === '/');
    await waitForShell(page);

    // ── Adding "Laptop": the sign-in is old, so the password is asked for first ──────────────
    await makeSignInOld(account.id);
    await openSecurity(page);
    const passkeys = page.locator('#passkeys');
    await passkeys.getByText(/^No passkeys yet\./).waitFor();
    await page.getByLabel('Name for a new passkey').fill('Laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const reauth = page.getByRole('dialog', { name: 'Confirm it’s you' });
    await reauth.getByLabel('Password').waitFor();
    // No passkey yet: nothing to confirm with but the password.
    assert.equal(await reauth.getByRole('button', { name: 'Use a passkey instead' }).count(), 0);
    await reauth.getByLabel('Password').fill(account.password);
    // Toasts close by themselves: watched from before they can appear.
    const added = page.getByText('Passkey “Laptop” added. You can use it to sign in.').waitFor();
    added.catch(() => {});
    await reauth.getByRole('button', { name: 'Confirm' }).click();
    const list = page.getByRole('list', { name: 'Your passkeys' });
    const laptop = list.getByRole('listitem').filter({ hasText: 'Laptop' });
    await laptop.waitFor();
    assert.equal(await list.getByRole('listitem').count(), 1);
    assert.match(await laptop.innerText(), /Laptop\s*Synced\s*Built-in · added .+ · Never used/);
    await added;
    const activity = page.getByRole('list', { name: 'Recent security activity' });
    await activity.getByRole('listitem').filter({ hasText: 'Passkey added' }).filter({ hasText: 'Laptop' }).waitFor();
    await passkeys.evaluate((el) => window.scrollTo(0, window.scrollY + el.getBoundingClientRect().top - 80));
    await screenshot(page, 'passkeys-settings');
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'the settings page with a passkey');

    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0].isResidentCredential, true, 'a discoverable credential (no email needed to sign in)');
    assert.equal(credentials[0].rpId, 'localhost');

    // ── Signing in with "Sign in with a passkey", no email typed ────────────────────────────
    await logOut(page);
    const email = page.getByLabel('Email');
    assert.equal(await email.getAttribute('autocomplete'), 'username webauthn');
    const passkeyButton = page.getByRole('button', { name: 'Sign in with a passkey' });
    await passkeyButton.waitFor();
    await screenshot(page, 'passkeys-sign-in');
    await passkeyButton.click();
    await page.waitForURL((url) => url.pathname === '/');
    await waitForShell(page);
    assert.equal(await signedInEmail(page), account.email.toLowerCase());

    // ── Confirming it's them with the passkey: adding a second one on the same device ─────────
    await makeSignInOld(account.id);
    await openSecurity(page);
    await list.getByRole('listitem').filter({ hasText: 'Laptop' }).waitFor();
    assert.match(await laptop.innerText(), /last used/);
    await page.getByLabel('Name for a new passkey').fill('Laptop again');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await reauth.getByRole('button', { name: 'Use a passkey instead' }).waitFor();
    await screenshot(page, 'passkeys-step-up');
    await reauth.getByRole('button', { name: 'Use a passkey instead' }).click();
    // Confirmed; the device then refuses a second passkey for the same account.
    await page.locator('#passkeys').getByRole('alert').filter({ hasText: 'This device already has a passkey for your account.' }).waitFor();
    assert.equal(await reauth.count(), 0, 'the step-up dialog closed once confirmed');
    assert.equal(await list.getByRole('listitem').count(), 1);
    await page.reload();
    await activity.getByRole('listitem').filter({ hasText: 'Confirmed it’s you with a passkey' }).first().waitFor();
    await activity.getByRole('listitem').filter({ hasText: 'Signed in with a passkey' }).first().waitFor();

    // ── The device cannot verify its user: refused, and still signed out ────────────────────
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
    await logOut(page);
    await passkeyButton.click();
    const refused = page.getByRole('alert').filter({ hasText: 'Signing in with a passkey was cancelled or timed out' });
    await refused.waitFor();
    await screenshot(page, 'passkeys-sign-in-refused');
    assert.equal(new URL(page.url()).pathname, '/login');
    assert.equal(await page.evaluate(() => localStorage.getItem('jwt')), null, 'still signed out');
    await passkeyButton.waitFor();
    assert.equal(await passkeyButton.isEnabled(), true, 'the button can be used again');
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: true });

    // ── The email field's suggestion: picking the passkey there signs in ─────────────────────
    await page.evaluate(() => localStorage.removeItem('e2e-no-autofill'));
    await page.reload();
    // The virtual authenticator takes the browser's offer at once, as a person picking it would.
    await page.waitForURL((url) => url.pathname === '/');
    await waitForShell(page);
    assert.equal(await signedInEmail(page), account.email.toLowerCase());

    // ── Removing it: confirmed with the passkey itself ──────────────────────────────────────
    await makeSignInOld(account.id);
    await openSecurity(page);
    await laptop.getByRole('button', { name: 'Remove Laptop' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this passkey?' });
    await confirm.getByRole('button', { name: 'Remove passkey' }).click();
    const removed = page.getByText('Passkey “Laptop” removed.').waitFor();
    removed.catch(() => {});
    await reauth.getByRole('button', { name: 'Use a passkey instead' }).click();
    await passkeys.getByText(/^No passkeys yet\./).waitFor();
    assert.equal(await confirm.count(), 0);
    await removed;
    await activity.getByRole('listitem').filter({ hasText: 'Passkey removed' }).first().waitFor();
    await passkeys.evaluate((el) => window.scrollTo(0, window.scrollY + el.getBoundingClientRect().top - 80));
    await screenshot(page, 'passkeys-removed');
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'the settings page without passkeys');
    await page.context().close();
  });
});
