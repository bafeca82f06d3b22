// The shell in Chromium against the real server: theme, cookie consent, the live online count,
// the page-not-found screen.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccount, cspViolations, launch, logInThroughForm, newPage, screenshot, waitForShell } from './helpers.js';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function onlineCount(page) {
  return Number((await page.getByTestId('online-count').textContent()).trim());
}

async function waitForCount(page, predicate, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  let value = await onlineCount(page);
  while (!predicate(value)) {
    if (Date.now() > deadline) throw new Error(`online count stayed at ${value}`);
    await page.waitForTimeout(200);
    value = await onlineCount(page);
  }
  return value;
}

describe('the shell', () => {
  it('runs under the strict Content-Security-Policy the server sends, breaking none of it', async () => {
    const page = await newPage(browser);
    const seen = [];
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window.__cspSeen ||= []).push(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    const res = await page.goto('/');
    const headers = res.headers();
    assert.match(headers['content-security-policy'], /script-src 'self'/);
    assert.doesNotMatch(headers['content-security-policy'].match(/script-src[^;]*/)[0], /unsafe/);
    assert.match(headers['content-security-policy'], /frame-ancestors 'none'/);
    assert.equal(headers['x-content-type-options'], 'nosniff');
    await waitForShell(page);
    for (const path of ['/about', '/login', '/signup', '/search?q=a']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      seen.push(...(await page.evaluate(() => window.__cspSeen || [])));
    }
    // An inline script injected into the page is refused: the policy is really enforced.
    const ran = await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true';
      document.body.appendChild(s);
      return window.__inlineRan === true;
    });
    assert.equal(ran, false, 'an inline script must not run');
    await page.waitForTimeout(300);
    cspViolations.length = 0; // the refusal just provoked is the only expected violation
    assert.deepEqual(seen, []);
    await page.context().close();
  });

  it('shows the splash, then the top bar with logo, online indicator, search, Login and Sign Up', async () => {
    const page = await newPage(browser);
    // A page the server did not paint (pages it painted, a post or a list, open without it).
    await page.goto('/about');
    await page.getByTestId('splash').waitFor();
    await screenshot(page, 'splash');
    await waitForShell(page);
    await page.getByRole('link', { name: 'Pressroom home' }).waitFor();
    await page.getByPlaceholder('Search articles or users...').waitFor();
    await page.getByRole('link', { name: 'Login' }).waitFor();
    await page.getByRole('link', { name: 'Sign Up' }).waitFor();
    assert.match(await page.getByTestId('online-indicator').textContent(), /\d+ online/);
    await screenshot(page, 'home-guest');
    await page.context().close();
  });

  it('keeps the chosen theme across a reload', async () => {
    const page = await newPage(browser);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/about');
    await waitForShell(page);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
    await page.getByTestId('theme-toggle').click();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.equal(await page.evaluate(() => localStorage.getItem('theme')), 'dark');
    await page.reload();
    await waitForShell(page);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    await screenshot(page, 'about-dark');
    await page.context().close();
  });

  it('follows the system theme while none is chosen', async () => {
    const page = await newPage(browser);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/about');
    await waitForShell(page);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    await page.context().close();
  });

  it('stores the cookie choice locally and sends it to the server for a signed-in user', async () => {
    const account = await createAccount('consent');
    const page = await newPage(browser);
    await page.goto('/login');
    await logInThroughForm(page, account);
    await page.waitForURL((url) => url.pathname === '/');
    const bar = page.getByRole('region', { name: 'Cookie consent' });
    await bar.waitFor();
    await screenshot(page, 'cookie-consent');
    const sent = page.waitForResponse((r) => r.url().endsWith('/api/user/consent') && r.request().method() === 'POST');
    await bar.getByRole('button', { name: 'Accept' }).click();
    const response = await sent;
    assert.ok(response.ok(), `POST /api/user/consent answered ${response.status()}`);
    assert.deepEqual(JSON.parse(response.request().postData()), { consent: true });
    assert.equal(await page.evaluate(() => localStorage.getItem('userCookieConsent')), 'true');
    await bar.waitFor({ state: 'detached' });
    await page.reload();
    await waitForShell(page);
    await page.waitForTimeout(300);
    assert.equal(await page.getByRole('region', { name: 'Cookie consent' }).count(), 0, 'the choice is remembered');
    await page.context().close();
  });

  it('paints the cookie bar with the page, and not at all once a choice is stored, before the app starts', async () => {
    const page = await newPage(browser);
    // The app's scripts held back: what is seen is the server's first paint alone.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/');
    const bar = page.getByRole('region', { name: 'Cookie consent' });
    await bar.waitFor();
    assert.ok(await bar.getByRole('button', { name: 'Accept' }).isDisabled(), 'its buttons wait for the app');
    assert.ok(await bar.getByRole('link', { name: 'Privacy Policy' }).isVisible());
    await screenshot(page, 'first-paint-cookie-bar');
    await page.evaluate(() => localStorage.setItem('userCookieConsent', 'false'));
    await page.reload();
    await page.locator('main#main').waitFor();
    // Only the inline script can have taken it away: the policy allows it (any violation fails the run).
    assert.equal(await bar.count(), 0, 'a stored choice takes the bar away in the first paint');
    await page.context().close();
  });

  it('raises the online count in one browser when a second one opens the site', async () => {
    const a = await newPage(browser);
    await a.goto('/');
    await waitForShell(a);
    const start = await waitForCount(a, (n) => n >= 1);
    const b = await newPage(browser);
    await b.goto('/users');
    await waitForShell(b);
    const raised = await waitForCount(a, (n) => n > start);
    assert.ok(raised > start, `count went from ${start} to ${raised}`);
    await screenshot(b, 'online-users');
    await b.context().close();
    await waitForCount(a, (n) => n <= start, 30_000);
    await a.context().close();
  });

  it('shows the page-not-found screen for an unknown address', async () => {
    const page = await newPage(browser);
    const response = await page.goto('/no/such/page');
    assert.equal(response.status(), 404, 'an unknown address is a true 404, with the app to show it');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await screenshot(page, 'not-found');
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.context().close();
  });

  it('searches users and posts as you type, and Enter opens the results page', async () => {
    const { api } = await import('./helpers.js');
    const name = `Zephyrine Quill ${Date.now().toString(36)}`;
    const email = `zq-${Date.now().toString(36)}@example.com`;
    const { status, data } = await api('/auth/signup', {
      method: 'POST',
      body: { fullName: name, email, password: 'correct horse battery', sendEmail: false },
    });
    assert.ok(status < 300, `signup answered ${status}`);
    const page = await newPage(browser);
    await page.goto('/');
    await waitForShell(page);
    const box = page.getByPlaceholder('Search articles or users...');
    await box.fill('zz');
    await page.waitForTimeout(600);
    assert.equal(await page.getByRole('listbox', { name: 'Search results' }).count(), 0, 'no search under 3 characters');
    await box.fill(name);
    const option = page.getByRole('option', { name: new RegExp(name) });
    await option.waitFor();
    assert.match(await option.textContent(), /Posts: 0/);
    // (The server shows e-mail addresses to signed-in users only.)
    await screenshot(page, 'search-dropdown');
    await option.click();
    await page.waitForURL(`**/author-profile/${data._id}`);
    await box.fill('qqxxnothingmatchesthis');
    await page.getByText('No results found').waitFor();
    await box.press('Enter');
    await page.waitForURL('**/search?query=qqxxnothingmatchesthis');
    await page.getByRole('heading', { name: /Results for/ }).waitFor();
    await page.context().close();
  });

  it('opens the search modal under 1024 px and closes it with Escape', async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 800 } });
    await page.goto('/about');
    await waitForShell(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
    await screenshot(page, 'mobile-menu');
    await page.getByRole('button', { name: 'Close menu' }).click();
    await page.getByRole('button', { name: 'Open search' }).click();
    await page.getByRole('dialog', { name: 'Search' }).waitFor();
    assert.equal(await page.evaluate(() => document.body.style.overflow), 'hidden');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Search' }).waitFor({ state: 'detached' });
    await page.context().close();
  });
});
