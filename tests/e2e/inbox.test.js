// The inbox (/message-box) as a person uses it, in Chromium against the real server: a like
// opens the post; a forwarded report is acknowledged from the inbox; an administrator's notice
// is answered and the administrator sees the reply live; after deleting in the inbox the unread
// badge equals the server's count. And no page asks for the browser's location on load.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createAccount, createAdmin, launch, logInThroughForm, newPage, screenshot, seriousAccessibilityViolations, waitForShell } from './helpers.js';

let browser;
let admin;
before(async () => {
  browser = await launch();
  admin = await createAdmin();
});
after(async () => {
  await browser?.close();
});

/** A browser signed in through the login form, its socket connected. */
async function signIn(account, { geolocationCalls = false } = {}) {
  const page = await newPage(browser);
  await page.addInitScript(() => localStorage.setItem('userCookieConsent', 'false'));
  if (geolocationCalls) {
    // Counts every request for the browser's position in this profile, across page loads.
    await page.addInitScript(() => {
      const count = (name) => () => {
        const calls = JSON.parse(sessionStorage.getItem('geolocationCalls') || '[]');
        calls.push(`${name} ${location.pathname}`);
        sessionStorage.setItem('geolocationCalls', JSON.stringify(calls));
      };
      const geo = navigator.geolocation;
      if (geo) {
        const original = geo.getCurrentPosition.bind(geo);
        geo.getCurrentPosition = (...args) => {
          count('getCurrentPosition')();
          return original(...args);
        };
        geo.watchPosition = (...args) => {
          count('watchPosition')();
          return 0;
        };
      }
    });
  }
  await page.goto('/login');
  await logInThroughForm(page, account);
  await page.waitForURL((url) => url.pathname !== '/login');
  await waitForShell(page);
  await page.locator('[data-testid="online-indicator"][data-socket-status="connected"]').waitFor();
  return page;
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

async function unreadCount(account) {
  const { status, data } = await api('/notification/unread-count', { token: account.token });
  assert.equal(status, 200, JSON.stringify(data));
  return Number(data.count);
}

/** Retries an assertion for up to 10 s (the server's answer to a click may still be on its way). */
async function eventually(check, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** The bell's badge as a number (0 when there is none). */
async function badge(page) {
  const el = page.getByTestId('unread-badge');
  if ((await el.count()) === 0) return 0;
  return Number((await el.textContent()).trim());
}

describe('the inbox', () => {
  it('a like notification opens the post from the inbox and is marked read', async () => {
    const author = await createAccount('liked-author');
    const fan = await createAccount('fan');
    const title = `Liked words ${Date.now().toString(36)}`;
    const post = await createPost(author, title);
    const like = await api(`/post/like/${post._id}`, { method: 'POST', token: fan.token });
    assert.ok(like.status < 300, JSON.stringify(like.data));

    const page = await signIn(author);
    await page.goto('/message-box');
    const item = page.getByRole('link', { name: `${fan.fullName} liked your post "${title}"` });
    await item.waitFor();
    assert.equal(await item.getAttribute('href'), `/post/${post.slug}`);
    await screenshot(page, 'inbox');
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'the inbox');
    await item.click();
    await page.waitForURL(`**/post/${post.slug}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await eventually(async () => assert.equal(await unreadCount(author), 0, 'opening it marked it read'));
    await page.context().close();
  });

  it('a forwarded report is acknowledged from the inbox', async () => {
    const author = await createAccount('reported');
    const reader = await createAccount('reader');
    const title = `Reported words ${Date.now().toString(36)}`;
    const post = await createPost(author, title);
    const report = await api('/admin/reports', { method: 'POST', token: reader.token, body: { postId: post._id, reason: 'copyright', details: 'Copied.' } });
    assert.equal(report.status, 201, JSON.stringify(report.data));
    const reportId = report.data.report._id;
    const review = await api(`/admin/reports/${reportId}`, { method: 'PATCH', token: admin.token, body: { forwardToAuthor: true } });
    assert.ok(review.status < 300, JSON.stringify(review.data));

    const page = await signIn(author);
    await page.goto('/message-box?type=admin');
    const item = page.getByRole('link', { name: new RegExp(`^Admin: Your post "${title}" was reported`) });
    await item.waitFor();
    assert.equal(await item.getAttribute('href'), `/acknowledge/${reportId}`);
    await item.click();
    await page.waitForURL(`**/acknowledge/${reportId}`);
    await page.getByRole('button', { name: 'Acknowledge the report', exact: true }).click();
    await page.getByRole('status').filter({ hasText: /acknowledged/i }).waitFor();
    const check = await api(`/admin/reports/${reportId}`, { token: admin.token });
    assert.equal(check.data.report?.isAcknowledged ?? check.data.isAcknowledged, true, JSON.stringify(check.data));
    await page.context().close();
  });

  it("an administrator's notice is answered from the inbox and the administrator sees the reply live", async () => {
    const writer = await createAccount('answering');
    const notice = `Please add your sources ${Date.now().toString(36)}`;
    const sent = await api('/notification/admin', { method: 'POST', token: admin.token, body: { userId: writer.id, content: notice } });
    assert.ok(sent.status < 300, JSON.stringify(sent.data));

    const adminPage = await signIn(admin);
    await adminPage.goto('/message-box?type=admin');
    await adminPage.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    const before = await badge(adminPage);

    const page = await signIn(writer);
    await page.goto('/message-box?type=admin');
    await page.getByRole('link', { name: `Admin: ${notice}` }).waitFor();
    await page.getByRole('button', { name: `Reply to Admin: ${notice}` }).click();
    const box = page.getByLabel('Your reply to the administrator');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByRole('alert').filter({ hasText: 'Missing notificationId or content' }).waitFor();
    const answer = 'Sources added below the last paragraph.';
    await box.fill(answer);
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByRole('list', { name: 'Your replies' }).getByText(answer).waitFor();
    await screenshot(page, 'inbox-reply');
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'the inbox with a reply');

    // Live on the administrator's open inbox, and on their badge.
    await adminPage.getByRole('link', { name: `Admin: ${answer}` }).waitFor();
    await adminPage.waitForFunction((n) => Number(document.querySelector('[data-testid="unread-badge"]')?.textContent ?? 0) > n, before);
    await screenshot(adminPage, 'inbox-admin-sees-reply');
    for (const p of [page, adminPage]) await p.context().close();
  });

  it("the badge equals the server's unread count after deleting in the inbox (the bell never opened)", async () => {
    const reader = await createAccount('counting');
    for (const n of [1, 2, 3]) {
      const r = await api('/notification/admin', { method: 'POST', token: admin.token, body: { userId: reader.id, content: `Notice number ${n}` } });
      assert.ok(r.status < 300, JSON.stringify(r.data));
    }
    const page = await signIn(reader);
    await page.goto('/message-box');
    await page.getByRole('link', { name: 'Admin: Notice number 2' }).waitFor();
    assert.equal(await badge(page), 3);
    await page.getByRole('button', { name: 'Delete: Admin: Notice number 2' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this notification?' });
    await screenshot(page, 'inbox-delete-dialog');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('link', { name: 'Admin: Notice number 2' }).waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.querySelector('[data-testid="unread-badge"]')?.textContent?.trim() === '2');
    assert.equal(await badge(page), await unreadCount(reader));
    assert.equal(await unreadCount(reader), 2);
    // And after marking one read from the inbox.
    await page.getByRole('button', { name: 'Mark read: Admin: Notice number 1' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="unread-badge"]')?.textContent?.trim() === '1');
    assert.equal(await badge(page), await unreadCount(reader));
    await page.context().close();
  });
});

describe('location, asked in context', () => {
  it('no page asks for the browser position on load; only choosing to share does', async () => {
    const person = await createAccount('located');
    const page = await signIn(person, { geolocationCalls: true });
    for (const path of ['/', '/user', '/message-box', '/user-setting', `/author-profile/${person.id}`]) {
      await page.goto(path);
      await waitForShell(page);
      await page.waitForLoadState('networkidle').catch(() => {});
    }
    const calls = () => page.evaluate(() => JSON.parse(sessionStorage.getItem('geolocationCalls') || '[]'));
    assert.deepEqual(await calls(), [], 'nothing asked on page load');
    assert.equal(await page.getByText(/^Location error/).count(), 0, 'no location error toast');

    // Choosing to share, with the browser granting: asked once, with the position saved.
    await page.context().grantPermissions(['geolocation']);
    await page.context().setGeolocation({ latitude: 51.5072, longitude: -0.1276 });
    await page.goto('/user-setting#location');
    await page.getByRole('button', { name: 'Share precise location' }).click();
    await page.getByRole('button', { name: 'Stop sharing precise location' }).waitFor();
    assert.deepEqual(await calls(), ['getCurrentPosition /user-setting']);
    await screenshot(page, 'settings-location');
    await page.context().close();
  });

  it('a refusal shows the toast once and is never asked about again', async () => {
    const person = await createAccount('refusing');
    const page = await signIn(person, { geolocationCalls: true });
    await page.context().clearPermissions();
    await page.goto('/user-setting#location');
    // Headless Chromium answers an undecided geolocation prompt as a denial.
    await page.evaluate(() => {
      navigator.geolocation.getCurrentPosition = (_ok, fail) => {
        const calls = JSON.parse(sessionStorage.getItem('geolocationCalls') || '[]');
        calls.push(`getCurrentPosition ${location.pathname}`);
        sessionStorage.setItem('geolocationCalls', JSON.stringify(calls));
        fail({ code: 1, message: 'User denied Geolocation' });
      };
    });
    await page.getByRole('button', { name: 'Share precise location' }).click();
    await page.getByText('Location error: User denied Geolocation').waitFor();
    await screenshot(page, 'location-refused');
    await page.getByRole('alert').filter({ hasText: 'Location error' }).getByRole('button', { name: 'Dismiss' }).click();
    await waitForShell(page);
    for (const path of ['/', '/user-setting', '/message-box']) {
      await page.goto(path);
      await waitForShell(page);
      await page.waitForLoadState('networkidle').catch(() => {});
    }
    assert.equal(await page.getByText(/^Location error/).count(), 0, 'not nagged again');
    const calls = await page.evaluate(() => JSON.parse(sessionStorage.getItem('geolocationCalls') || '[]'));
    assert.deepEqual(calls, ['getCurrentPosition /user-setting'], 'asked exactly once, when chosen');
    assert.equal(await page.evaluate(() => localStorage.getItem('preciseLocation')), 'declined');
    await page.context().close();
  });
});
