// Settings → Developers in Chromium, against a server of this file's own that may deliver webhooks
// to loopback addresses and retries fast (PRESSROOM__WEBHOOKS__*), with a tiny HTTP receiver on
// 127.0.0.1 standing in for a person's endpoint. A person creates an API key with read:posts
// (confirming their password if the step-up dialog asks), sees it once and copies it; the key
// answers GET /api/auth/check from outside the browser; once revoked in the page it is refused
// (401). They add an endpoint for post.published, see its signing secret once, send a test
// event: the receiver gets it with Standard Webhooks headers whose signature checks out with the
// secret, and the page's delivery log shows it succeeded with HTTP 200. Both parts are
// photographed (developers-keys, developers-webhooks) and the page is checked with axe-core.
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { api, createAccount, launch, logInThroughForm, newPage, screenshot, seriousAccessibilityViolations, startOwnServer, waitForShell } from './helpers.js';

const DB_NAME = process.env.PRESSROOM_SUITE_DB || `developers_${Date.now()}`;

/** A webhook receiver: records each request (headers and body) and answers 200 "ok". */
async function startReceiver() {
  const requests = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { requests, url: `http://127.0.0.1:${server.address().port}/hook`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Whether a Standard Webhooks signature header holds a v1 signature of the message by `secret`. */
function signatureValid(secret, headers, body) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest();
  return String(headers['webhook-signature'])
    .split(' ')
    .map((part) => part.split(','))
    .some(([version, sig]) => {
      if (version !== 'v1' || !sig) return false;
      const given = Buffer.from(sig, 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

async function waitUntil(check, what, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let browser;
let server;
let receiver;
before(async () => {
  receiver = await startReceiver();
  server = await startOwnServer({
    name: 'developers',
    dbName: DB_NAME,
    env: {
      PRESSROOM__WEBHOOKS__ALLOW_LOOPBACK: 'true',
      PRESSROOM__WEBHOOKS__RETRY_SCHEDULE_SECONDS: '1,2,4',
      PRESSROOM__WEBHOOKS__POLL_MS: '100',
    },
  });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await receiver?.close();
});

/** Scrolls so that `locator`'s top is just under the top bar. */
async function scrollToTop(locator) {
  await locator.evaluate((el) => window.scrollTo(0, window.scrollY + el.getBoundingClientRect().top - 80));
}

describe('settings: developers', () => {
  it('creates an API key that works until revoked, and a webhook endpoint whose test event arrives signed and is logged', async () => {
    const account = await createAccount('developer', 'correct horse battery', { base: server.url });
    const page = await newPage(browser, { baseURL: server.url });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.addInitScript(() => localStorage.setItem('userCookieConsent', 'true'));
    await page.goto('/login');
    await logInThroughForm(page, account);
    await page.waitForURL((url) => url.pathname === '/');
    await waitForShell(page);

    // ── Settings → Developers, from the settings page's own links ───────────────────────────
    await page.goto('/user-setting');
    await waitForShell(page);
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Developers' }).click();
    await page.waitForURL((url) => url.hash === '#developers');
    const developers = page.locator('#developers');
    await developers.getByRole('heading', { name: 'Developers', level: 2 }).waitFor();
    const keys = page.locator('#api-keys');
    await keys.getByText('No API keys yet.').waitFor();

    // ── A key with read:posts, shown once ───────────────────────────────────────────────────
    await keys.getByLabel('Key name').fill('CI script');
    const scopes = keys.getByRole('group', { name: 'Scopes' });
    await scopes.getByRole('checkbox', { name: /read:posts/ }).check();
    await keys.getByLabel('Expires after').selectOption({ label: '90 days' });
    await keys.getByRole('button', { name: 'Create key' }).click();
    const shownKey = page.getByRole('textbox', { name: 'Your new API key' });
    const reauth = page.getByRole('dialog', { name: 'Confirm it’s you' });
    await Promise.race([shownKey.waitFor(), reauth.waitFor()]);
    if (await reauth.isVisible()) {
      await reauth.getByLabel('Password').fill(account.password);
      await reauth.getByRole('button', { name: 'Confirm' }).click();
    }
    await shownKey.waitFor();
    const key = await shownKey.inputValue();
    assert.match(key, /^pr_live_/);
    assert.equal(key.length, 44);
    assert.equal(await shownKey.getAttribute('readonly'), '');
    await keys.getByText('Copy it now: you will not see it again.').waitFor();
    await keys.getByRole('button', { name: 'Copy your new api key' }).click();
    await keys.getByText('Copied to the clipboard.').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);
    const keyList = keys.getByRole('list', { name: 'Your API keys' });
    const keyRow = keyList.getByRole('listitem').filter({ hasText: 'CI script' });
    await keyRow.waitFor();
    assert.match(await keyRow.innerText(), new RegExp(`${key.slice(0, 16)}…`));
    assert.match(await keyRow.innerText(), /expires .+ · Never used · 0 uses/);
    assert.match(await keyRow.innerText(), /read:posts/);
    await scrollToTop(keys);
    await screenshot(page, 'developers-keys');
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'the developers section with a new key shown');

    // The key works from outside the browser.
    const check = await api('/auth/check', { token: key, base: server.url });
    assert.equal(check.status, 200, JSON.stringify(check.data));
    assert.equal(check.data.email, account.email.toLowerCase());

    await keys.getByRole('button', { name: 'I have copied it' }).click();
    assert.equal(await shownKey.count(), 0, 'the key is shown once');
    await page.reload();
    await keyRow.waitFor();
    assert.equal(await page.getByText(key).count(), 0, 'the key is not shown again');
    assert.doesNotMatch(await keyRow.innerText(), /Never used/, 'its use is recorded');

    // ── Revoked in the page: refused at once ────────────────────────────────────────────────
    await keyRow.getByRole('button', { name: 'Revoke CI script' }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke this API key?' });
    await revoke.getByRole('button', { name: 'Revoke key' }).click();
    await keys.getByText('No API keys yet.').waitFor();
    assert.equal(await revoke.count(), 0);
    const refused = await api('/auth/check', { token: key, base: server.url });
    assert.equal(refused.status, 401, JSON.stringify(refused.data));

    // ── A webhook endpoint for post.published, its secret shown once ────────────────────────
    const webhooks = page.locator('#webhooks');
    await webhooks.getByText('No endpoints yet.').waitFor();
    await webhooks.getByLabel('Endpoint URL').fill(receiver.url);
    await webhooks.getByRole('group', { name: 'Events' }).getByRole('checkbox', { name: /post\.published/ }).check();
    await webhooks.getByLabel('Description (optional)').fill('E2E receiver');
    await webhooks.getByRole('button', { name: 'Add endpoint' }).click();
    const shownSecret = page.getByRole('textbox', { name: 'Your endpoint’s signing secret' });
    await shownSecret.waitFor();
    const secret = await shownSecret.inputValue();
    assert.match(secret, /^whsec_/);
    await webhooks.getByText('Copy it now: you will not see it again.').waitFor();
    await webhooks.getByRole('button', { name: 'I have copied it' }).click();
    assert.equal(await shownSecret.count(), 0);
    const endpoint = webhooks.getByRole('list', { name: 'Your webhook endpoints' }).getByRole('listitem').filter({ hasText: receiver.url }).first();
    await endpoint.waitFor();
    assert.match(await endpoint.innerText(), /E2E receiver/);
    assert.match(await endpoint.innerText(), /post\.published/);

    // ── A test event: received, signed, and logged as succeeded ─────────────────────────────
    assert.equal(receiver.requests.length, 0);
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    const received = await waitUntil(() => receiver.requests[0], 'the test event at the receiver');
    assert.equal(received.method, 'POST');
    assert.equal(received.url, '/hook');
    for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) assert.ok(received.headers[header], `${header} is sent`);
    assert.ok(signatureValid(secret, received.headers, received.body), `the signature checks out with the secret: ${received.headers['webhook-signature']}`);
    assert.equal(await endpoint.getByRole('button', { name: 'Delivery log' }).getAttribute('aria-expanded'), 'true');
    const deliveries = endpoint.getByRole('list', { name: 'Deliveries' });
    const delivered = deliveries.getByRole('listitem').filter({ hasText: 'Succeeded' }).filter({ hasText: 'HTTP 200' });
    await delivered.waitFor();
    assert.equal(await deliveries.getByRole('listitem').count(), 1);
    assert.match(await delivered.innerText(), /1 attempt/);
    assert.match(await delivered.getByLabel('Response').innerText(), /ok/);
    await scrollToTop(webhooks);
    await screenshot(page, 'developers-webhooks');
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'the developers section with an endpoint and its delivery log');
    assert.deepEqual(page.consoleErrors.filter((e) => !/401|403/.test(e)), []);
    await page.context().close();

    // Neither the key nor the signing secret reached the server's log (a prefix at most).
    const log = readFileSync(server.log, 'utf8');
    assert.ok(log.length > 0, 'the server wrote its log');
    assert.ok(!log.includes(key.slice(16)), 'the API key is not in the server log');
    assert.ok(!log.includes(secret.replace(/^whsec_/, '')), 'the signing secret is not in the server log');
  });
});
