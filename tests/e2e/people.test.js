// People in Chromium against the real server: following from a profile (counts on both sides),
// the follower map placing a follower at their city from their address, the live online dot, a
// block ending the follow and the posts in feeds, a new name and avatar reaching the top bar, a
// password change logging the other browser out, and category management with the live slug
// check. Every screen passes axe-core without serious or critical violations.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, assertAccessible, createAccount, createAdmin, gradientPng, launch, screenshot, signedInPage } from './helpers.js';

/** Makes titles unique to this run (the suite's database outlives one run while developing). */
const RUN = Date.now().toString(36);

/** An address in the shipped GeoIP test fixture: London, United Kingdom. */
const LONDON_ADDRESS = '81.2.69.142';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A signed-in page of this suite's browser. */
const signedIn = (account, options) => signedInPage(browser, account, options);

async function openProfile(page, userId, tab) {
  await page.goto(`/author-profile/${userId}${tab ? `?tab=${tab}` : ''}`);
  await page.getByTestId('profile-header').waitFor();
}

async function publish(account, title, status = 'published') {
  const { status: code, data } = await api('/post/post-create', {
    method: 'POST',
    token: account.token,
    body: { title: `${title} ${RUN}`, blocks: [{ id: 'b1', type: 'paragraph', data: { text: `${title}: some words to read.` } }], status },
  });
  assert.ok(code < 300, JSON.stringify(data));
  return data.post;
}

describe('people', () => {
  let reader;
  let author;

  before(async () => {
    reader = await createAccount('reader');
    author = await createAccount('author');
  });

  it('a reader follows an author from the profile: the counts change on both sides, and the author sees them on the map at their city', async () => {
    await publish(author, 'Notes from the press');
    // The reader signs in from a London address: the app places them by it.
    const readerPage = await signedIn(reader, { forwardedFor: LONDON_ADDRESS });
    await openProfile(readerPage, author.id);
    assert.equal(await readerPage.getByTestId('followers-count').textContent(), '0');
    // The button and the count change at once (optimistic); the server's answer follows.
    const followed = readerPage.waitForResponse((r) => r.url().endsWith(`/api/follow/${author.id}`) && r.request().method() === 'POST');
    await readerPage.getByTestId('profile-header').getByRole('button', { name: /^Follow/ }).click();
    await readerPage.getByTestId('profile-header').getByRole('button', { name: /^Unfollow/ }).waitFor();
    await readerPage.getByTestId('followers-count').getByText('1').waitFor();
    assert.equal((await followed).status(), 200);
    // The reader's activity lists the follow, newest first; clearing what is older than 30 days
    // keeps it, Clear all (confirmed) empties the list.
    await readerPage.goto('/user');
    const activity = readerPage.getByTestId('activity');
    await activity.getByText(`Followed ${author.fullName}`).waitFor();
    await readerPage.getByRole('button', { name: 'Clear older than 30 days' }).click();
    await readerPage.getByText('Activity older than 30 days was cleared.').first().waitFor();
    await activity.getByText(`Followed ${author.fullName}`).waitFor();
    await readerPage.getByRole('button', { name: 'Clear all' }).click();
    await readerPage.getByRole('group', { name: 'Clear all activity?' }).getByRole('button', { name: 'Clear all' }).click();
    await readerPage.getByText('No activity yet. Likes, comments, follows and the like show here.').waitFor();
    await assertAccessible(readerPage, 'own profile with activity');

    // The reader's own profile counts the follow.
    await openProfile(readerPage, reader.id);
    assert.equal(await readerPage.getByTestId('following-count').textContent(), '1');
    await readerPage.getByRole('tab', { name: 'Following' }).click();
    await readerPage.getByTestId('person').filter({ hasText: author.fullName }).waitFor();
    await readerPage.getByRole('tab', { name: 'Posts' }).click();
    await screenshot(readerPage, 'profile-own');

    // The author's studio: one follower, and the map shows them in London.
    const authorPage = await signedIn(author);
    await openProfile(authorPage, author.id);
    assert.equal(await authorPage.getByTestId('followers-count').textContent(), '1');
    await authorPage.getByRole('tab', { name: 'Followers' }).click();
    await authorPage.getByTestId('person').filter({ hasText: reader.fullName }).waitFor();
    await screenshot(authorPage, 'profile-studio');
    await assertAccessible(authorPage, 'studio');

    await authorPage.getByRole('tab', { name: 'Map' }).click();
    const point = authorPage.locator(`[data-testid="map-point"][data-user="${reader.id}"]`);
    await point.waitFor();
    await authorPage.getByTestId('map-india').waitFor();
    const place = authorPage.getByTestId('place').filter({ hasText: reader.fullName });
    await place.getByText('London').waitFor();
    await place.getByText('United Kingdom').waitFor();
    assert.equal(await authorPage.locator('[data-testid="map-svg"] .map-countries path').count() > 150, true, 'the world outline is drawn');
    // The reader is online now: the point and the list say so.
    assert.equal(await point.getAttribute('data-online'), 'true');
    await place.getByText('Online').waitFor();
    await screenshot(authorPage, 'follower-map');
    await assertAccessible(authorPage, 'follower map');

    // The point is in Europe on the projection: left of India's border, above the equator.
    const [pointBox, indiaBox] = await Promise.all([point.boundingBox(), authorPage.getByTestId('map-india').boundingBox()]);
    assert.ok(pointBox.x < indiaBox.x && pointBox.y < indiaBox.y, `London at ${pointBox.x},${pointBox.y}; India at ${indiaBox.x},${indiaBox.y}`);

    // The reader closes their browser: offline on the map, live.
    await readerPage.context().close();
    await authorPage.locator(`[data-testid="map-point"][data-user="${reader.id}"][data-online="false"]`).waitFor();
    await place.getByText('Offline').waitFor();
    await authorPage.context().close();
  });

  it("the author's online dot follows their browser live", async () => {
    const watcher = await signedIn(reader);
    await openProfile(watcher, author.id);
    const dot = watcher.getByTestId('online-dot');
    await watcher.locator('[data-testid="online-dot"][data-online="false"]').waitFor();
    assert.equal(await watcher.getByTestId('presence').textContent(), 'Offline');

    const authorPage = await signedIn(author);
    await watcher.locator('[data-testid="online-dot"][data-online="true"]').waitFor();
    assert.equal(await watcher.getByTestId('presence').textContent(), 'Online');
    await screenshot(watcher, 'profile-online');
    await assertAccessible(watcher, 'profile');
    await authorPage.context().close();
    await watcher.locator('[data-testid="online-dot"][data-online="false"]').waitFor();
    assert.equal(await dot.getAttribute('data-online'), 'false');
    await watcher.context().close();
  });

  it("the studio's posts: the owner's draft with its status, search and sort; a visitor sees only what is published", async () => {
    await publish(author, 'Draft in the drawer', 'draft');
    const page = await signedIn(author);
    await openProfile(page, author.id);
    const posts = page.getByRole('tabpanel');
    const draft = posts.locator('article', { hasText: `Draft in the drawer ${RUN}` });
    await draft.getByText('draft', { exact: true }).waitFor();
    await draft.getByRole('link', { name: `Edit Draft in the drawer ${RUN}` }).waitFor();
    await page.getByTestId('posts-total').getByText('2 posts').waitFor();
    // Oldest first puts the published post (written first) on top.
    await page.getByLabel('Sort').selectOption('oldest');
    await posts.locator('article').first().locator('[id$="-title"]', { hasText: `Notes from the press ${RUN}` }).waitFor();
    await page.getByRole('searchbox', { name: 'Search your posts' }).fill('drawer');
    await page.getByTestId('posts-total').getByText('1 post', { exact: true }).waitFor();
    await screenshot(page, 'studio-posts');
    await assertAccessible(page, 'studio posts');
    await page.context().close();

    const visitor = await signedIn(reader);
    await openProfile(visitor, author.id);
    await visitor.getByTestId('posts-total').waitFor();
    await visitor.getByRole('tabpanel').locator('[id$="-title"]', { hasText: `Notes from the press ${RUN}` }).waitFor();
    assert.equal(await visitor.getByRole('tabpanel').locator('[id$="-title"]', { hasText: `Draft in the drawer ${RUN}` }).count(), 0);
    await visitor.context().close();
  });

  it("the achievements and analytics tabs show progress and the author's numbers", async () => {
    const page = await signedIn(author);
    await openProfile(page, author.id, 'achievements');
    const first = page.locator('[data-testid="badge"]', { hasText: 'First Post' });
    await first.waitFor();
    assert.equal(await first.getAttribute('data-earned'), 'true');
    await page.locator('[data-testid="badge"]', { hasText: 'Prolific Writer' }).getByText('1 post published of 10 — 9 to go').waitFor();
    await screenshot(page, 'achievements');
    await assertAccessible(page, 'achievements');

    await page.getByRole('tab', { name: 'Analytics' }).click();
    await page.getByTestId('analytics-totals').waitFor();
    await page.getByTestId('chart-interactions').locator('.recharts-line-curve').first().waitFor({ state: 'attached' });
    assert.equal(await page.getByTestId('chart-interactions').locator('.recharts-line-curve').count(), 5, 'views, likes, comments, shares, bookmarks');
    await page.getByTestId('chart-reading').locator('.recharts-bar').first().waitFor({ state: 'attached' });
    await screenshot(page, 'analytics');
    await assertAccessible(page, 'analytics');
    // Per post, from the list of most viewed posts.
    await page.getByRole('link', { name: `Notes from the press ${RUN}` }).click();
    await page.getByRole('heading', { name: `Notes from the press ${RUN}` }).waitFor();
    await page.getByTestId('analytics-totals').waitFor();
    await page.context().close();
  });

  it("blocking ends the follow and the author's posts leave the reader's feeds", async () => {
    const post = await publish(author, 'A post the blocked reader will not see');
    // The reader follows (still) and sees the post in the Following feed.
    const readerPage = await signedIn(reader);
    await readerPage.goto('/?tab=following');
    await readerPage.getByRole('link', { name: post.title }).waitFor();

    const authorPage = await signedIn(author);
    await openProfile(authorPage, reader.id);
    await authorPage.getByTestId('profile-header').getByRole('button', { name: /^Block/ }).click();
    const dialog = authorPage.getByRole('dialog', { name: /^Block / });
    await dialog.getByText('neither of you will see the other’s posts in feeds or comments').waitFor();
    await screenshot(authorPage, 'block-confirmation');
    await dialog.getByRole('button', { name: 'Block', exact: true }).click();
    await authorPage.getByText(`You blocked ${reader.fullName}.`).waitFor();
    await authorPage.getByTestId('profile-header').getByRole('button', { name: /^Unblock/ }).waitFor();

    // The reader's follow is gone and the author's posts left their feeds.
    const follow = await api(`/follow/status/${author.id}`, { token: reader.token });
    assert.equal(follow.data.isFollowing, false);
    await readerPage.goto('/?tab=following');
    await readerPage.getByRole('tabpanel').getByText(/Posts of the authors you follow|No posts/).waitFor();
    assert.equal(await readerPage.getByRole('link', { name: post.title }).count(), 0);
    await readerPage.goto('/');
    await readerPage.getByRole('tabpanel').waitFor();
    await readerPage.waitForLoadState('networkidle');
    assert.equal(await readerPage.getByRole('link', { name: post.title }).count(), 0);

    // Settings list the blocked reader with Unblock.
    await authorPage.goto('/user-setting');
    const blocked = authorPage.getByTestId('blocked-list');
    await blocked.locator('.people-list__name', { hasText: reader.fullName }).waitFor();
    await blocked.getByRole('button', { name: `Unblock ${reader.fullName}` }).click();
    await authorPage.getByText('You have not blocked anyone.').waitFor();
    await readerPage.context().close();
    await authorPage.context().close();
  });

  it('a new name and avatar show in the top bar without a reload', async () => {
    const page = await signedIn(reader);
    await page.goto('/user-setting');
    await page.getByLabel('Name', { exact: true }).fill('Ada Renamed');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('status').filter({ hasText: 'Profile saved.' }).first().waitFor();

    await page.getByLabel('Choose a picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: gradientPng(400, 300, [200, 40, 40], [40, 40, 200]) });
    await page.getByTestId('avatar-preview').waitFor();
    await page.getByLabel('Zoom').fill('1.5');
    await screenshot(page, 'settings-avatar');
    await page.getByRole('button', { name: 'Save avatar' }).click();
    await page.getByRole('status').filter({ hasText: 'Avatar saved.' }).first().waitFor();

    // The top bar's avatar is the stored square picture; the menu says the new name.
    const avatar = page.getByRole('button', { name: 'Account menu' }).locator('img');
    await avatar.waitFor();
    const src = await avatar.getAttribute('src');
    assert.match(src, /^\/media\/[0-9a-f]{32}\.png$/);
    const size = await page.evaluate(async (url) => {
      const img = new Image();
      img.src = url;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    }, src);
    assert.deepEqual(size, [256, 256]);
    await page.getByRole('button', { name: 'Account menu' }).click();
    // The name heads the account dropdown, above the menu (a menu holds menu items only).
    await page.getByRole('menu', { name: 'Account' }).waitFor();
    await page.locator('.account-menu__who').getByText('Ada Renamed').waitFor();
    await page.keyboard.press('Escape');
    await page.mouse.click(5, 500);
    await page.goto('/user-setting');
    await page.getByLabel('Name', { exact: true }).waitFor();
    await screenshot(page, 'settings');
    await assertAccessible(page, 'settings');

    // A save the server refuses shows its message.
    await page.getByLabel('Website').fill('ftp://example.com');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('website must be an http(s) address').first().waitFor();
    await page.context().close();
  });

  it('changing the password logs the other browser out; logging out everywhere ends every session', async () => {
    const account = await createAccount('mover');
    const other = await signedIn(account);
    const page = await signedIn(account);
    await page.goto('/user-setting#password');
    await page.getByLabel('Current password').fill('not the password');
    await page.getByLabel('New password', { exact: true }).fill('a brand new secret');
    await page.getByLabel('Confirm new password').fill('a brand new secret');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: 'Current password is incorrect' }).waitFor();

    await page.getByLabel('Current password').fill(account.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password changed.' }).first().waitFor();

    // The other browser is told at once (its socket is closed): it is a guest now.
    await other.getByText('Viewing as guest. Log in for full features.').waitFor();
    await other.getByRole('link', { name: 'Login' }).first().waitFor();
    // This one carries on, socket and all.
    await page.locator('[data-testid="online-indicator"][data-socket-status="connected"]').waitFor();
    await page.goto('/user');
    await page.getByRole('heading', { name: 'Your activity' }).waitFor();
    await screenshot(page, 'own-profile');
    await assertAccessible(page, 'own profile');
    const check = await api('/auth/login', { method: 'POST', body: { email: account.email, password: 'a brand new secret' } });
    assert.equal(check.status, 200);
    await other.context().close();

    // "Log out everywhere" (asked first) ends this browser's session and every other one.
    const third = await signedIn({ ...account, password: 'a brand new secret' });
    await page.goto('/user-setting#sessions');
    await page.getByRole('button', { name: 'Log out everywhere' }).click();
    await page.getByRole('dialog', { name: 'Log out everywhere?' }).getByRole('button', { name: 'Log out everywhere' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await third.getByText('Viewing as guest. Log in for full features.').waitFor();
    const stale = await api('/user/get-user', { token: check.data.token });
    assert.equal(stale.status, 401, 'a token from before is refused');
    await third.context().close();
    await page.context().close();
  });

  it('the author manages categories: a taken slug is unavailable; creating and choosing them', async () => {
    // An existing category's slug (created by someone else) is taken.
    const taken = `taken-${Date.now().toString(36)}`;
    const existing = await api('/category/', { method: 'POST', token: reader.token, body: { name: taken, slug: taken, description: '' } });
    assert.ok(existing.status < 300, JSON.stringify(existing.data));
    const page = await signedIn(author);
    await openProfile(page, author.id, 'categories');
    const form = page.getByRole('form', { name: 'New category' });
    await form.getByLabel('Name').fill(taken);
    await form.getByTestId('slug-hint').getByText(`“${taken}” is unavailable`).waitFor();
    assert.equal(await form.getByRole('button', { name: 'Create category' }).isDisabled(), true);
    await screenshot(page, 'categories-taken');

    const mine = `Studio ${Date.now().toString(36)}`;
    await form.getByLabel('Name').fill(mine);
    await form.getByTestId('slug-hint').getByText('is available').waitFor();
    await form.getByLabel('Description').fill('Made in the studio');
    await form.getByRole('button', { name: 'Create category' }).click();
    await page.getByTestId('own-category').filter({ hasText: mine }).waitFor();

    // Assign: the new one is chosen; choose the taken one too, then save.
    await page.getByTestId('category-choices').locator('label', { hasText: taken }).click();
    await page.getByRole('button', { name: /^Save selection/ }).click();
    await page.getByText('Your categories are saved.').waitFor();
    const selected = await api('/category/user-selected', { token: author.token });
    const names = selected.data.categories.map((c) => c.name).sort();
    assert.deepEqual(names, [mine, taken].sort());
    await screenshot(page, 'categories');
    await assertAccessible(page, 'categories');

    // Edit and delete the own category.
    const row = page.getByTestId('own-category').filter({ hasText: mine });
    await row.getByRole('button', { name: `Edit ${mine}` }).click();
    await page.getByRole('form', { name: `Edit ${mine}` }).getByLabel('Description').fill('Edited');
    await page.getByRole('form', { name: `Edit ${mine}` }).getByRole('button', { name: 'Save' }).click();
    await row.getByText('Edited').waitFor();
    await row.getByRole('button', { name: `Delete ${mine}` }).click();
    await row.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByTestId('own-category').filter({ hasText: mine }).waitFor({ state: 'detached' });
    await page.context().close();
  });

  it("a visitor never sees the owner's tabs; the owner's bank details; administrators see everyone on the dashboard's map", async () => {
    const page = await signedIn(reader);
    await openProfile(page, author.id, 'map');
    // The app decides once the session is known (the server's page comes first).
    await page.waitForURL((url) => url.search === '', { timeout: 5000 }).catch(() => {});
    assert.equal(new URL(page.url()).search, '', 'a direct link to an owner tab gives the public profile');
    for (const tab of ['Analytics', 'Map', 'Categories', 'Bank details']) {
      assert.equal(await page.getByRole('tab', { name: tab }).count(), 0, `${tab} is hidden`);
    }
    await openProfile(page, author.id, 'bank-details');
    await page.waitForURL((url) => url.search === '', { timeout: 5000 }).catch(() => {});
    assert.equal(new URL(page.url()).search, '', 'nor does a link to the bank details');
    await page.context().close();

    const admin = await createAdmin();
    const adminPage = await signedIn(admin);
    await adminPage.goto('/admin?section=locations');
    await adminPage.getByTestId('locations-map').waitFor();
    await adminPage.locator(`[data-testid="map-point"][data-user="${reader.id}"]`).waitFor();
    await adminPage.getByTestId('map-india').waitFor();
    await screenshot(adminPage, 'all-locations');
    await assertAccessible(adminPage, 'all locations');
    // The owner's bank details are the money studio's panel, in the profile's tab.
    await openProfile(adminPage, admin.id, 'bank-details');
    await adminPage.getByRole('tabpanel').getByTestId('bank-details').waitFor();
    await adminPage.getByRole('tabpanel').getByRole('link', { name: 'Plans, subscribers and earnings' }).waitFor();
    await assertAccessible(adminPage, 'bank details');
    await adminPage.context().close();
  });
});
