// axe-core on every route of seed 000 §2 (and the screens outside the shell), signed out and
// signed in (as an administrator, so /admin is the dashboard itself), in the light and the dark
// theme, at 1280 px and at 390 px: no serious or critical violation anywhere, touch targets of at
// least 24 x 24 px included.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createAccount, createAdmin, launch, logInThroughForm, newPage, screenshot, seriousAccessibilityViolations, waitForShell } from './helpers.js';

let browser;
let admin;
let routes;
before(async () => {
  browser = await launch();
  admin = await createAdmin();
  // Something to show on the routes that need a post, a category, a tag and a report.
  const author = await createAccount('a11y-author');
  const reader = await createAccount('a11y-reader');
  const categories = await api('/category/all-category');
  const category = categories.data?.categories?.[0] ?? null;
  const post = await api('/post/post-create', {
    method: 'POST',
    token: admin.token,
    body: {
      title: `Accessible post ${Date.now().toString(36)}`,
      status: 'published',
      tags: ['access'],
      ...(category ? { category: category._id } : {}),
      blocks: [
        { id: 'h1', type: 'header', data: { text: 'A heading', level: 2 } },
        { id: 'p1', type: 'paragraph', data: { text: 'A paragraph to read, like and comment on.' } },
      ],
    },
  });
  assert.equal(post.status, 201, JSON.stringify(post.data));
  const authored = await api('/post/post-create', {
    method: 'POST',
    token: author.token,
    body: { title: `Reported post ${Date.now().toString(36)}`, status: 'published', blocks: [{ id: 'p1', type: 'paragraph', data: { text: 'Words.' } }] },
  });
  const report = await api('/admin/reports', { method: 'POST', token: reader.token, body: { postId: authored.data.post._id, reason: 'spam' } });
  const { slug, _id } = post.data.post;
  routes = [
    '/',
    '/createPost',
    `/edit-post/${slug}`,
    `/delete-post/${_id}`,
    `/category/${category?.slug ?? 'technology'}`,
    `/post/${slug}`,
    '/search?query=accessible',
    '/admin',
    '/about',
    '/contact',
    '/privacy',
    '/terms',
    '/user',
    '/user-setting',
    `/author-profile/${admin.id}`,
    `/author-profile/${admin.id}?tab=categories`,
    `/plans/${admin.id}`,
    '/bookmark',
    `/acknowledge/${report.data?.report?._id ?? 'missing'}`,
    '/message-box',
    '/users',
    '/verify',
    '/tag/access',
    '/signup',
    '/login',
    '/select-category',
    '/reset-password',
    '/no-such-page',
  ];
});
after(async () => {
  await browser?.close();
});

async function session(signedIn) {
  const page = await newPage(browser);
  await page.addInitScript(() => localStorage.setItem('userCookieConsent', 'false'));
  if (signedIn) {
    await page.goto('/login');
    await logInThroughForm(page, admin);
    await page.waitForURL((url) => url.pathname !== '/login');
    await waitForShell(page);
  }
  return page;
}

/** Waits until the page has settled: no loading overlay or Loading... line, the network quiet. */
async function settle(page) {
  await page.waitForLoadState('networkidle', { timeout: 8000 }).catch(() => {});
  await page.getByTestId('loading-overlay').waitFor({ state: 'detached', timeout: 8000 }).catch(() => {});
  await page.getByTestId('splash').waitFor({ state: 'detached', timeout: 4000 }).catch(() => {});
  // Finite animations (a block fading in) finish first: a colour halfway through one is not the page's.
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity), null, { timeout: 5000 })
    .catch(() => {});
}

for (const signedIn of [false, true]) {
  describe(signedIn ? 'every route, signed in' : 'every route, signed out', () => {
    it('has no serious or critical axe violation in either theme at 1280 px and 390 px', async () => {
      const page = await session(signedIn);
      const found = [];
      for (const route of routes) {
        await page.setViewportSize({ width: 1280, height: 860 });
        await page.goto(route);
        await settle(page);
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
          for (const theme of ['light', 'dark']) {
            await page.evaluate((t) => {
              document.documentElement.dataset.theme = t;
            }, theme);
            await page.waitForTimeout(60);
            let violations = await seriousAccessibilityViolations(page, { targetSize: true });
            if (violations.length > 0) {
              // Checked again a second later: what is still there is the page's, not a moment of
              // loading (the editor laying out its blocks).
              await page.waitForTimeout(1000);
              violations = await seriousAccessibilityViolations(page, { targetSize: true });
            }
            for (const v of violations) found.push(`${route} (${theme}, ${width} px): ${v}`);
          }
        }
      }
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(routes.find((r) => r.startsWith('/post/')));
      await settle(page);
      await screenshot(page, signedIn ? 'a11y-post-390-signed-in' : 'a11y-post-390');
      assert.deepEqual(found, [], found.join('\n'));
      await page.context().close();
    });
  });
}
