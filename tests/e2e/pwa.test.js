// The installable app and Web Push, in Chromium against the real server: the manifest and the
// service worker make the site installable (the DevTools protocol reports no installability
// error) and precache the app's shell; a push delivered to the worker shows its notification and
// a click on it opens its page; a new version of the worker brings the update prompt, whose Reload
// hands over to it. In Settings → Notifications on this device, headless Chromium (which has no
// push service) says so after trying; the page is then given a subscription of the stand-in push
// service (npm web-push-testing, at PRESSROOM_TEST_PUSH_URL, which the server delivers to in the
// test run), which shows as this device in the list, survives a reload, can be removed and added
// again; and a like while its owner has no tab open reaches the stand-in service as exactly one
// push. Screenshots: pwa-settings.png, pwa-settings-390.png, pwa-no-push-service.png,
// pwa-inbox.png, pwa-update-prompt.png; the settings page is checked with axe-core.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { api, BASE_URL, createAccount, logInThroughForm, persistentProfile as sharedProfile, screenshot, seriousAccessibilityViolations, waitForShell } from './helpers.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = process.env.PRESSROOM_ROOT || path.resolve(HERE, '..', '..');
const PUSH_URL = (process.env.PRESSROOM_TEST_PUSH_URL || '').replace(/\/$/, '');
const ORIGIN = new URL(BASE_URL).origin;

const TEXT = {
  enable: 'Enable notifications on this device',
  disable: 'Turn off on this device',
  off: 'Get your notifications on this device, even when Pressroom is closed.',
  on: 'Notifications are on for this device.',
  noService: 'This browser has no push service available, so notifications cannot reach this device.',
};

const profiles = [];

before(() => {
  if (!PUSH_URL) {
    throw new Error('PRESSROOM_TEST_PUSH_URL must be the address of the stand-in push service (npm web-push-testing) the server under test delivers to');
  }
});

after(async () => {
  for (const profile of profiles) await profile.close();
});

/** A profile of `helpers.persistentProfile` on this file's site, closed after the file. */
async function persistentProfile({ viewport, baseURL = BASE_URL } = {}) {
  const profile = await sharedProfile({ baseURL, viewport, name: 'pwa' });
  profiles.push(profile);
  return profile;
}

/**
 * A reverse proxy to `target` on a port of its own (requests and websockets passed through as
 * they are) whose /sw.js gains a line after `nextVersion()`: another version of the worker at
 * the same address, as after a deployment.
 */
async function workerVersionProxy(target) {
  const upstream = new URL(target);
  let suffix = '';
  const server = http.createServer((req, res) => {
    const isWorker = req.url.split('?')[0] === '/sw.js';
    const headers = { ...req.headers, host: upstream.host };
    if (isWorker) {
      headers['accept-encoding'] = 'identity';
      delete headers['if-none-match'];
      delete headers['if-modified-since'];
    }
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
      if (!isWorker || !suffix || answer.statusCode !== 200) {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks = [];
      answer.on('data', (chunk) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat([...chunks, Buffer.from(suffix)]);
        const { etag: _etag, 'last-modified': _modified, 'content-length': _length, ...rest } = answer.headers;
        res.writeHead(200, { ...rest, 'content-length': body.length, 'cache-control': 'no-cache' });
        res.end(body);
      });
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.on('upgrade', (req, socket, head) => {
    const forward = net.connect(Number(upstream.port), upstream.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`, ...Object.entries({ ...req.headers, host: upstream.host }).map(([k, v]) => `${k}: ${v}`)];
      forward.write(`${lines.join('\r\n')}\r\n\r\n`);
      forward.write(head);
      socket.pipe(forward).pipe(socket);
    });
    const end = () => {
      socket.destroy();
      forward.destroy();
    };
    forward.on('error', end);
    socket.on('error', end);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    nextVersion() {
      suffix = `\n// the next version, ${Date.now()}\n`;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** Retries `check` until it returns without throwing (default up to 10 s). */
async function eventually(check, timeoutMs = 10_000, everyMs = 200) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}

/** Waits until the service worker controls the page (it registers itself once the page is idle). */
async function waitForWorker(page) {
  await page.waitForFunction(() => navigator.serviceWorker?.controller?.scriptURL?.endsWith('/sw.js'), null, { timeout: 30_000 });
}

/**
 * The site's service worker registration id, from the DevTools protocol's ServiceWorker domain,
 * once its worker is activated and running (a push is delivered to it right after).
 */
async function registrationId(cdp) {
  const registrations = [];
  const versions = [];
  const onRegistrations = ({ registrations: list }) => registrations.push(...list);
  const onVersions = ({ versions: list }) => versions.push(...list);
  cdp.on('ServiceWorker.workerRegistrationUpdated', onRegistrations);
  cdp.on('ServiceWorker.workerVersionUpdated', onVersions);
  await cdp.send('ServiceWorker.enable');
  try {
    return await eventually(() => {
      const found = registrations.find((r) => r.scopeURL === `${ORIGIN}/` && !r.isDeleted);
      assert.ok(found, `no registration for ${ORIGIN}/ among ${JSON.stringify(registrations)}`);
      const latest = versions.filter((v) => v.registrationId === found.registrationId).at(-1);
      assert.ok(latest?.status === 'activated' && latest.runningStatus === 'running', `the worker is not running yet: ${JSON.stringify(latest)}`);
      return found.registrationId;
    });
  } finally {
    cdp.off('ServiceWorker.workerRegistrationUpdated', onRegistrations);
    cdp.off('ServiceWorker.workerVersionUpdated', onVersions);
  }
}

/**
 * Delivers a push through the DevTools protocol and waits until the worker shows a notification
 * with `title`. Headless Chromium now and then drops a protocol delivery to a worker that has
 * just started (no event, no error): a delivery nothing came of after 3 s is made again, up to
 * three times. What is shown is then checked as it is.
 */
async function deliverAndWait(cdp, page, registrationId, data, title, waitMs = 3000) {
  for (let attempt = 1; ; attempt += 1) {
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: ORIGIN, registrationId, data });
    try {
      return await eventually(async () => {
        const list = await shownNotifications(page);
        assert.ok(list.some((n) => n.title === title), `no notification "${title}" among ${JSON.stringify(list)}`);
        return list;
      }, waitMs);
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** The notifications the site's worker shows now. */
function shownNotifications(page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
  });
}

/** The PNG's width and height (its IHDR chunk). */
function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'not a PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

async function signIn(page, account) {
  await page.goto('/login');
  await logInThroughForm(page, account);
  await page.waitForURL((url) => url.pathname !== '/login');
  await waitForShell(page);
}

async function openNotificationSettings(page) {
  await page.goto('/user-setting#notifications');
  await waitForShell(page);
  const section = page.getByRole('region', { name: 'Notifications on this device' });
  await section.waitFor();
  return section;
}

async function createPost(author, title) {
  const { status, data } = await api('/post/post-create', {
    method: 'POST',
    token: author.token,
    body: { title, status: 'published', blocks: [{ id: 'p1', type: 'paragraph', data: { text: `The body of ${title}.` } }] },
  });
  assert.equal(status, 201, JSON.stringify(data));
  return data.post;
}

/** POSTs JSON to the stand-in push service. */
async function pushService(pathname, body) {
  const response = await fetch(`${PUSH_URL}${pathname}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const data = await response.json().catch(() => null);
  assert.equal(response.status, 200, `${pathname}: ${JSON.stringify(data)}`);
  return data;
}

/**
 * Makes the page's PushManager hand out `subscription` (a subscription of the stand-in push
 * service, made from Node: the page's Content-Security-Policy rightly lets it talk to nothing but
 * the site). Subscribed or not is kept in local storage, so it lasts across reloads.
 */
function fakePushManager({ subscription, applicationServerKey }) {
  const KEY = 'e2e-push-subscribed';
  const bytes = (base64url) => {
    const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
  };
  const fake = {
    endpoint: subscription.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: bytes(applicationServerKey) },
    getKey: (name) => bytes(subscription.keys[name]),
    toJSON: () => ({ endpoint: subscription.endpoint, expirationTime: null, keys: { ...subscription.keys } }),
    unsubscribe: async () => {
      localStorage.removeItem(KEY);
      return true;
    },
  };
  window.PushManager.prototype.subscribe = async function subscribe() {
    localStorage.setItem(KEY, 'yes');
    return fake;
  };
  window.PushManager.prototype.getSubscription = async function getSubscription() {
    return localStorage.getItem(KEY) ? fake : null;
  };
}

describe('the installable app', () => {
  it('has a manifest with icons and screenshots, a worker that controls the page and precaches the shell, and no installability error', async () => {
    // The manifest, as the server sends it.
    const response = await fetch(`${BASE_URL}/manifest.webmanifest`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/manifest\+json/);
    const manifest = await response.json();
    assert.equal(manifest.name, 'Pressroom');
    assert.ok(manifest.short_name);
    assert.ok(manifest.description);
    assert.equal(manifest.start_url, '/');
    assert.equal(manifest.scope, '/');
    assert.equal(manifest.display, 'standalone');
    assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/i);
    assert.match(manifest.background_color, /^#[0-9a-f]{6}$/i);
    const sizes = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`);
    for (const wanted of ['192x192 any', '512x512 any', '512x512 maskable']) assert.ok(sizes.includes(wanted), `${wanted} among ${sizes}`);
    assert.deepEqual(manifest.screenshots.map((s) => s.form_factor).sort(), ['narrow', 'wide']);
    // Every image is a PNG of the size the manifest says.
    for (const image of [...manifest.icons, ...manifest.screenshots]) {
      const file = await fetch(`${BASE_URL}${image.src}`);
      assert.equal(file.status, 200, image.src);
      assert.match(file.headers.get('content-type') ?? '', /^image\/png/, image.src);
      assert.equal(pngSize(Buffer.from(await file.arrayBuffer())), image.sizes, image.src);
    }
    const worker = await fetch(`${BASE_URL}/sw.js`);
    assert.equal(worker.status, 200);
    assert.match(worker.headers.get('content-type') ?? '', /javascript/);
    // The page the server fills in for every address is the built index.html: no inline script
    // (the Content-Security-Policy allows scripts from the site only) and the manifest linked.
    const built = readFileSync(path.join(ROOT, 'web', 'dist', 'index.html'), 'utf8');
    assert.deepEqual(built.match(/<script(?![^>]*\bsrc=)[^>]*>/g) ?? [], [], 'index.html has an inline script');

    const profile = await persistentProfile();
    const page = await profile.page();
    for (const address of ['/login', '/']) {
      await page.goto(address);
      assert.equal(await page.locator('link[rel="manifest"]').getAttribute('href'), '/manifest.webmanifest', address);
    }
    await waitForShell(page);
    await waitForWorker(page);

    const cdp = await profile.context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, []);
    const { url: manifestUrl, errors } = await cdp.send('Page.getAppManifest');
    assert.equal(manifestUrl, `${ORIGIN}/manifest.webmanifest`);
    assert.deepEqual(errors, []);

    // The precache: the shell and the app's files of this build, nothing huge.
    const cached = await eventually(async () => {
      const found = await page.evaluate(async () => {
        const urls = [];
        for (const name of await caches.keys()) {
          if (!name.includes('precache')) continue;
          for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
        }
        return urls;
      });
      assert.ok(found.includes('/index.html'), `the shell is not precached yet: ${found.join(', ')}`);
      return found;
    });
    for (const file of ['/index.html', '/boot.js', '/theme-init.js', '/manifest.webmanifest', '/icons/icon-192.png']) assert.ok(cached.includes(file), `${file} is precached`);
    assert.ok(cached.some((file) => /^\/assets\/index-[\w-]+\.js$/.test(file)), 'the entry script is precached');
    const unwanted = cached.filter((file) => /api-docs|\.br$|\.gz$|\.map$|bundle-report|screenshots\/|post-editor/.test(file));
    assert.deepEqual(unwanted, []);

    // Offline, a page opens from the precached shell.
    await profile.context.setOffline(true);
    try {
      const offline = await page.goto('/about');
      assert.equal(offline?.fromServiceWorker(), true, 'the page came from the worker');
      await page.getByRole('banner').waitFor();
      assert.match(await page.title(), /Pressroom/);
    } finally {
      await profile.context.setOffline(false);
    }
    assert.deepEqual(profile.log.filter((line) => /service worker|sw\.js/i.test(line)), []);
    await profile.close();
  });

  it('shows a pushed notification (title, body, tag, its address) and a click on it opens that page', async () => {
    const profile = await persistentProfile();
    await profile.context.grantPermissions(['notifications'], { origin: ORIGIN });
    const page = await profile.page();
    await page.goto('/');
    await waitForShell(page);
    await waitForWorker(page);
    const cdp = await profile.context.newCDPSession(page);
    const id = await registrationId(cdp);
    // What the worker reports goes with a failure.
    const workerErrors = [];
    cdp.on('ServiceWorker.workerErrorReported', ({ errorMessage }) => workerErrors.push(errorMessage.errorMessage));

    const payload = { title: 'Ada Lovelace liked your post', body: '“Notes on the engine”', url: '/about', tag: 'e2e-like-1', badge: 3 };
    const shown = await deliverAndWait(cdp, page, id, JSON.stringify(payload), payload.title).catch((error) => {
      throw new Error(`${error.message}; the page's errors: ${profile.log.join('\n')}; the worker's: ${workerErrors.join('\n')}`);
    });
    assert.deepEqual(shown, [{ title: payload.title, body: payload.body, tag: payload.tag, data: { url: '/about' } }]);

    // A push with the same tag replaces it; one without JSON shows the generic notification.
    // Each push is delivered on its own and waited for (the DevTools protocol now and then drops
    // a push sent while the worker is starting; deliverAndWait sends it again then).
    await deliverAndWait(cdp, page, id, JSON.stringify({ ...payload, title: 'Ada Lovelace and Grace Hopper liked your post' }), 'Ada Lovelace and Grace Hopper liked your post');
    await deliverAndWait(cdp, page, id, 'not json', 'Pressroom', 8000);
    await eventually(async () => {
      const titles = [...new Set((await shownNotifications(page)).map((n) => n.title))].sort();
      assert.deepEqual(titles, ['Ada Lovelace and Grace Hopper liked your post', 'Pressroom']);
    });

    // The click, as far as headless Chromium goes: a notificationclick event dispatched in the
    // worker for the notification it shows. The page (the site's one window, not yet at the
    // address) is sent to the address and the notification is closed.
    const worker = profile.context.serviceWorkers().find((w) => w.url().endsWith('/sw.js')) ?? (await profile.context.waitForEvent('serviceworker'));
    await worker.evaluate(async (tag) => {
      const [notification] = await self.registration.getNotifications({ tag });
      self.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
    }, payload.tag);
    await page.waitForURL((url) => url.pathname === '/about');
    await eventually(async () => assert.deepEqual([...new Set((await shownNotifications(page)).map((n) => n.tag))], ['']));
    await profile.close();
  });

  it('offers a new version with an accessible prompt, and Reload hands the page over to it', async () => {
    // The site through a proxy of the test's own that can serve "the next deployment" of the
    // worker (the same script with one more line): the browser fetches the worker's script
    // itself, past the DevTools protocol's request interception.
    const proxy = await workerVersionProxy(BASE_URL);
    try {
      const profile = await persistentProfile({ baseURL: proxy.url });
      const page = await profile.page();
      await page.goto('/');
      await waitForShell(page);
      await waitForWorker(page);
      const prompt = page.getByTestId('update-prompt');
      assert.equal(await prompt.getAttribute('role'), 'status');
      assert.equal(await prompt.getAttribute('aria-live'), 'polite');
      proxy.nextVersion();
      await page.evaluate(async () => {
        await (await navigator.serviceWorker.getRegistration()).update();
      });
      await prompt.getByText('A new version of Pressroom is ready.').waitFor({ timeout: 30_000 });
      await screenshot(page, 'pwa-update-prompt');
      // Nothing reloads by itself: what is typed stays.
      await page.evaluate(() => {
        window.e2eBeforeUpdate = true;
      });
      await page.waitForTimeout(1000);
      assert.equal(await page.evaluate(() => window.e2eBeforeUpdate), true);
      await prompt.getByRole('button', { name: 'Reload' }).click();
      await page.waitForFunction(() => window.e2eBeforeUpdate === undefined, null, { timeout: 15_000 });
      await waitForShell(page);
      // The page is run by the new worker, and nothing waits any more.
      const state = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return { controlled: Boolean(navigator.serviceWorker.controller), waiting: Boolean(registration?.waiting) };
      });
      assert.deepEqual(state, { controlled: true, waiting: false });
      await profile.close();
    } finally {
      await proxy.close();
    }
  });
});

describe('push notifications in the settings', () => {
  it('says headless Chromium has no push service, then registers a stand-in subscription as this device, keeps it across a reload, removes it, and a like while no tab is open arrives as one push', async () => {
    const reader = await createAccount('push-reader');
    const fan = await createAccount('push-fan');
    const postTitle = `Pushed ${Date.now().toString(36)}`;
    const post = await createPost(reader, postTitle);

    const profile = await persistentProfile();
    await profile.context.grantPermissions(['notifications'], { origin: ORIGIN });
    await profile.context.addInitScript(() => {
      localStorage.setItem('userCookieConsent', 'true');
      // Counts the permission prompts asked for in this profile, across page loads.
      const ask = Notification.requestPermission.bind(Notification);
      Notification.requestPermission = (...args) => {
        sessionStorage.setItem('e2e-permission-asks', String(Number(sessionStorage.getItem('e2e-permission-asks') || 0) + 1));
        return ask(...args);
      };
    });
    const page = await profile.page();
    await signIn(page, reader);
    let section = await openNotificationSettings(page);
    await section.getByText(TEXT.off).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem('e2e-permission-asks')), null, 'the browser was asked on load');
    assert.equal(await section.getByLabel('Name of this device').inputValue(), 'Chrome on Linux');

    // ── Headless Chromium: no push service ─────────────────────────────────────────────────
    await section.getByRole('button', { name: TEXT.enable }).click();
    await section.getByText(TEXT.noService).waitFor({ timeout: 20_000 });
    assert.equal(await page.evaluate(() => sessionStorage.getItem('e2e-permission-asks')), '1');
    await section.getByText(TEXT.noService).scrollIntoViewIfNeeded();
    await screenshot(page, 'pwa-no-push-service');
    assert.equal((await api('/push/subscriptions', { token: reader.token })).data.subscriptions.length, 0);

    // ── A subscription of the stand-in push service ────────────────────────────────────────
    const { status, data: key } = await api('/push/vapid-public-key');
    assert.equal(status, 200, JSON.stringify(key));
    const { data: subscription } = await pushService('/subscribe', { applicationServerKey: key.publicKey, userVisibleOnly: 'true' });
    assert.ok(subscription.endpoint && subscription.keys?.p256dh && subscription.clientHash, JSON.stringify(subscription));
    await profile.context.addInitScript(fakePushManager, { subscription, applicationServerKey: key.publicKey });
    await page.reload();
    section = await openNotificationSettings(page);
    await section.getByRole('button', { name: TEXT.enable }).click();
    await section.getByText(TEXT.on).waitFor();
    const list = section.getByRole('list', { name: 'Devices that get your notifications' });
    const item = list.getByRole('listitem').filter({ hasText: 'Chrome on Linux' });
    await item.getByText('This device').waitFor();
    const [device] = (await api('/push/subscriptions', { token: reader.token })).data.subscriptions;
    assert.equal(device.endpoint, subscription.endpoint);
    assert.equal(device.label, 'Chrome on Linux');
    assert.equal(await section.getByRole('button', { name: TEXT.disable }).evaluate((el) => el === document.activeElement), true, 'the focus is on what turns it off');

    // Still this device after a reload.
    await page.reload();
    section = await openNotificationSettings(page);
    await section.getByText(TEXT.on).waitFor();
    await section.getByRole('list', { name: 'Devices that get your notifications' }).getByText('This device').waitFor();
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'pwa-settings');
    const violations = await seriousAccessibilityViolations(page, { targetSize: true });
    assert.deepEqual(violations, [], violations.join('\n'));
    await page.setViewportSize({ width: 390, height: 844 });
    await section.getByRole('heading', { name: 'Notifications on this device' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'pwa-settings-390');
    const narrow = await seriousAccessibilityViolations(page, { targetSize: true });
    assert.deepEqual(narrow, [], narrow.join('\n'));
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'nothing wider than 390 px');
    await page.setViewportSize({ width: 1280, height: 860 });

    // Removed from the list (after the app's dialog): gone on the server, off here.
    await section.getByRole('button', { name: 'Remove Chrome on Linux' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this device?' });
    await dialog.getByRole('button', { name: 'Remove device' }).click();
    await dialog.waitFor({ state: 'detached' });
    await section.getByText('No device gets your notifications yet.').waitFor();
    await section.getByText(TEXT.off).waitFor();
    assert.equal((await api('/push/subscriptions', { token: reader.token })).data.subscriptions.length, 0);

    // On again, from the inbox's control this time.
    await page.goto('/message-box');
    await waitForShell(page);
    const inbox = page.getByRole('complementary', { name: 'Notifications on this device' });
    await inbox.getByRole('button', { name: TEXT.enable }).click();
    await inbox.getByText(TEXT.on).waitFor();
    await screenshot(page, 'pwa-inbox');
    assert.equal((await api('/push/subscriptions', { token: reader.token })).data.subscriptions.length, 1);

    // ── A like while the reader has no tab open: one push to the stand-in service ──────────
    await profile.close();
    await eventually(async () => {
      const online = await api('/user/online');
      assert.ok(!online.data.users.some((u) => u._id === reader.id), 'the reader is still online');
    });
    const like = await api(`/post/like/${post._id}`, { method: 'POST', token: fan.token });
    assert.ok(like.status < 300, JSON.stringify(like.data));
    const messages = await eventually(async () => {
      const { data } = await pushService('/get-notifications', { clientHash: subscription.clientHash });
      assert.ok(data.messages.length >= 1, 'no push yet');
      return data.messages;
    });
    // No second one comes after it.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const { data: later } = await pushService('/get-notifications', { clientHash: subscription.clientHash });
    assert.equal(later.messages.length, 1, JSON.stringify(later.messages));
    const pushed = JSON.parse(messages[0]);
    assert.equal(typeof pushed.title, 'string');
    assert.ok(pushed.title.length > 0);
    assert.equal(typeof pushed.body, 'string');
    assert.match(pushed.url, /^\/\S*/);
    assert.ok(`${pushed.title} ${pushed.body}`.includes(fan.fullName) || `${pushed.title} ${pushed.body}`.includes(postTitle), JSON.stringify(pushed));

    // That very payload, delivered to the reader's worker, shows as a notification.
    const again = await persistentProfile();
    await again.context.grantPermissions(['notifications'], { origin: ORIGIN });
    const page2 = await again.page();
    await page2.goto('/');
    await waitForWorker(page2);
    const cdp = await again.context.newCDPSession(page2);
    const [shown] = await deliverAndWait(cdp, page2, await registrationId(cdp), messages[0], pushed.title);
    assert.equal(shown.title, pushed.title);
    assert.equal(shown.body, pushed.body);
    assert.deepEqual(shown.data, { url: pushed.url });
    await again.close();
  });
});
