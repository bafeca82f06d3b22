// Writing, reading and engaging with posts in Chromium against the real server: an author writes
// and publishes a post in the Editor.js editor, a reader votes, likes, bookmarks and comments, the
// author replies and sees it all live, edits, and deletes; drafts stay private; guests read.
// Every main screen passes axe-core without serious or critical violations.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api, assertAccessible, createAccount, SCREENSHOTS, gradientPng, launch, newPage, screenshot, signedInPage, waitForShell } from './helpers.js';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A signed-in page of this suite's browser. */
const signedIn = (account) => signedInPage(browser, account);

/** Opens Editor.js's toolbox on the current (empty) block and picks a tool by its title. */
async function addBlock(page, title) {
  await page.locator('.ce-block').last().hover();
  await page.locator('.ce-toolbar__plus').click();
  await page.locator('.ce-popover--opened .ce-popover-item', { hasText: title }).first().click();
}

/** Puts the caret in a new empty block at the end of the editor. */
async function newBlockAtEnd(page) {
  const box = await page.locator('.codex-editor__redactor').boundingBox();
  await page.mouse.click(box.x + 200, box.y + box.height - 30);
}

async function bold(page) {
  await page.keyboard.down('Control');
  await page.keyboard.press('b');
  await page.keyboard.up('Control');
}

const EVERY_BLOCK = [
  { id: 'p1', type: 'paragraph', data: { text: 'A paragraph with <b>bold</b>, <i>italic</i>, <mark class="cdx-marker">marked</mark> and <code class="inline-code">code</code> text, and <a href="https://example.com">a link</a>.' } },
  { id: 'h1', type: 'header', data: { text: 'A section heading', level: 2 } },
  { id: 'l1', type: 'list', data: { style: 'ordered', items: [{ content: 'First step', meta: {}, items: [{ content: 'A nested detail', meta: {}, items: [] }] }, { content: 'Second step', meta: {}, items: [] }] } },
  { id: 'q1', type: 'quote', data: { text: 'Simplicity is prerequisite for reliability.', caption: 'Edsger W. Dijkstra', alignment: 'left' } },
  { id: 'c1', type: 'code', data: { code: 'fn main() {\n    println!("Hello, Pressroom");\n}' } },
  { id: 'd1', type: 'delimiter', data: {} },
  { id: 'e1', type: 'embed', data: { service: 'youtube', source: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ', embed: 'https://www.youtube.com/embed/aqz-KE-bpKQ', width: 580, height: 320, caption: 'An embedded video' } },
  { id: 't1', type: 'table', data: { withHeadings: true, content: [['Language', 'Year'], ['Rust', '2015'], ['TypeScript', '2012']] } },
  { id: 'k1', type: 'checklist', data: { items: [{ text: 'Write the post', checked: true }, { text: 'Share it', checked: false }] } },
  { id: 'v1', type: 'poll', data: { question: 'Which do you read most?', options: [{ text: 'Articles' }, { text: 'Blogs' }], multiple: false } },
];

describe('posts', () => {
  it('an author writes and publishes; a reader votes, likes, bookmarks and comments; the author replies, edits and deletes', async () => {
    const author = await createAccount('author');
    const reader = await createAccount('reader');
    const writer = await signedIn(author);

    // ── The author writes a post in the editor ────────────────────────────────────────────
    await writer.getByRole('link', { name: 'Write' }).click();
    await writer.waitForURL('**/createPost');
    await writer.locator('.ce-paragraph').first().waitFor();
    const title = `Field notes ${Date.now()}`;
    await writer.getByLabel('Title').fill(title);

    await writer.locator('.ce-paragraph').first().click();
    await writer.keyboard.type('A paragraph with ');
    await bold(writer);
    await writer.keyboard.type('bold words');
    await bold(writer);
    await writer.keyboard.type(' inside.');
    await writer.keyboard.press('Enter');
    await addBlock(writer, 'Heading');
    await writer.keyboard.type('What we found');
    await writer.keyboard.press('Enter');
    await addBlock(writer, 'Unordered List');
    await writer.keyboard.type('First finding');
    await writer.keyboard.press('Enter');
    await writer.keyboard.type('Second finding');
    await writer.keyboard.press('Enter');
    await writer.keyboard.press('Enter');
    await addBlock(writer, 'Image');
    await writer.locator('.image-tool__input').setInputFiles({ name: 'chart.png', mimeType: 'image/png', buffer: gradientPng(480, 270, [30, 80, 200], [240, 120, 40]) });
    await writer.locator('.image-tool__image').waitFor();
    await writer.locator('.image-tool__caption').click();
    await writer.keyboard.type('Our chart');
    await writer.keyboard.press('Enter');
    await addBlock(writer, 'Table');
    await writer.locator('.tc-cell').first().click();
    await writer.keyboard.type('Sample');
    await writer.keyboard.press('Tab');
    await writer.keyboard.type('Result');
    await writer.locator('.tc-cell').nth(2).click();
    await writer.keyboard.type('A');
    await writer.keyboard.press('Tab');
    await writer.keyboard.type('42');
    await newBlockAtEnd(writer);
    await addBlock(writer, 'Poll');
    await writer.getByLabel('Question').fill('Should we keep going?');
    await writer.getByLabel('Option 1').fill('Yes');
    await writer.getByLabel('Option 2').fill('No');
    await writer.locator('.post-details input[type=file]').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: gradientPng(640, 360, [20, 160, 120], [30, 40, 160]) });
    await writer.getByRole('img', { name: 'Thumbnail preview' }).waitFor();
    await writer.getByLabel('Tags').fill('Research');
    await writer.getByLabel('Tags').press('Enter');
    await screenshot(writer, 'editor');
    await assertAccessible(writer, 'the editor');
    // The draft is kept locally while writing.
    await writer.waitForFunction(() => localStorage.getItem('postDraft:new')?.includes('Should we keep going?'));

    // A new post starts as a draft; publishing is the writer's choice.
    assert.equal(await writer.getByLabel('Save as draft').isChecked(), true, 'a new post defaults to Save as draft');
    await writer.getByLabel('Publish now').check();
    await writer.getByRole('button', { name: 'Publish', exact: true }).click();
    await writer.waitForURL('**/post/**');
    await writer.getByRole('heading', { level: 1, name: title }).waitFor();
    const slug = new URL(writer.url()).pathname.split('/').pop();
    assert.equal(await writer.evaluate(() => localStorage.getItem('postDraft:new')), null, 'a saved post leaves no draft');
    const body = writer.locator('.post-body');
    assert.equal(await body.locator('p b').first().textContent(), 'bold words');
    await body.getByRole('heading', { name: 'What we found' }).waitFor();
    assert.equal(await body.locator('ul.block-list > li').count(), 2);
    assert.match(await body.getByRole('img', { name: 'Our chart' }).getAttribute('src'), /^\/media\//);
    await body.getByRole('cell', { name: '42' }).waitFor();
    await writer.getByRole('heading', { name: 'Should we keep going?' }).waitFor();
    const { data: published } = await api(`/post/${slug}`, { token: author.token });
    const postId = published.post._id;
    assert.deepEqual(published.post.blocks.map((b) => b.type), ['paragraph', 'header', 'list', 'image', 'table', 'poll']);
    assert.deepEqual(published.post.tags, ['research']);

    // It comes first under Latest, with its thumbnail.
    await writer.goto('/');
    const firstCard = writer.getByRole('tabpanel').getByRole('article').first();
    await firstCard.getByRole('link', { name: title }).waitFor();
    assert.match(await firstCard.locator('img.post-card__thumb').getAttribute('src'), /^\/media\//);
    await screenshot(writer, 'home-feed');
    await assertAccessible(writer, 'the home page');

    // The author waits on the post page; the bell is live.
    await writer.goto(`/post/${slug}`);
    await writer.getByRole('heading', { level: 1, name: title }).waitFor();
    await writer.locator('[data-testid="online-indicator"][data-socket-status="connected"]').waitFor();

    // ── A reader in another browser votes, likes, bookmarks and comments ──────────────────
    const readerPage = await signedIn(reader);
    await readerPage.goto(`/post/${slug}`);
    await readerPage.getByRole('heading', { level: 1, name: title }).waitFor();
    await readerPage.getByRole('button', { name: 'Yes' }).click();
    await readerPage.getByRole('button', { name: /Yes \(your vote\)/ }).waitFor();
    await readerPage.getByText('100% · 1 vote').waitFor();
    const like = readerPage.getByRole('button', { name: /^Like/ });
    await like.focus();
    await readerPage.keyboard.press('Enter');
    await readerPage.getByRole('button', { name: /^Liked/ }).waitFor();
    await readerPage.getByRole('button', { name: /^Bookmark/ }).click();
    await readerPage.getByRole('button', { name: /^Bookmarked/ }).waitFor();
    const comment = 'Great notes, thank you!';
    await readerPage.getByLabel('Add a comment').fill(comment);
    await readerPage.getByRole('button', { name: 'Comment', exact: true }).click();
    await readerPage.locator('.comment__body', { hasText: comment }).waitFor();
    await readerPage.getByTestId('comment-count').filter({ hasText: '(1)' }).waitFor();
    // The comment shows at once, faded until the server has it: checked once it is kept.
    await readerPage.locator('.comment--pending').waitFor({ state: 'detached' });
    await assertAccessible(readerPage, 'the post page');

    // The reader's comment and vote survive a reload.
    await readerPage.reload();
    await readerPage.locator('.comment__body', { hasText: comment }).waitFor();
    await readerPage.getByRole('button', { name: /Yes \(your vote\)/ }).waitFor();
    await readerPage.getByRole('button', { name: /^Liked/ }).waitFor();

    // ── The author's bell shows the like and the comment live; the author replies ──────────
    const badge = writer.getByTestId('unread-badge');
    await writer.waitForFunction(() => Number(document.querySelector('[data-testid="unread-badge"]')?.textContent) >= 3);
    await writer.getByRole('button', { name: /^Notifications/ }).click();
    const list = writer.getByRole('region', { name: 'Notifications list' });
    await list.getByText(`liked your post "${title}"`, { exact: false }).waitFor();
    await list.getByText(`commented on your post "${title}": ${comment}`, { exact: false }).waitFor();
    await writer.getByRole('button', { name: /^Notifications/ }).click();
    assert.ok(Number(await badge.textContent()) >= 3, 'the like, the bookmark and the comment are unread');
    await writer.reload();
    const readerComment = writer.getByTestId('comment').filter({ hasText: comment });
    await readerComment.getByRole('button', { name: 'Reply' }).click();
    await writer.getByLabel(/Reply to/).fill('Thanks for reading!');
    await writer.getByRole('button', { name: 'Reply', exact: true }).last().click();
    await writer.locator('.comment-list--replies .comment__body', { hasText: 'Thanks for reading!' }).waitFor();
    await writer.getByTestId('comment-count').filter({ hasText: '(2)' }).waitFor();

    // ── The author edits the title; the reader sees it after navigating ────────────────────
    await writer.getByRole('link', { name: 'Edit', exact: true }).click();
    await writer.waitForURL(`**/edit-post/${slug}`);
    await writer.locator('.ce-block').first().waitFor();
    const newTitle = `${title} (revised)`;
    await writer.getByLabel('Title').fill(newTitle);
    await writer.getByRole('button', { name: 'Save and publish' }).click();
    await writer.waitForURL(`**/post/${slug}`);
    await writer.getByRole('heading', { level: 1, name: newTitle }).waitFor();
    await readerPage.getByRole('link', { name: 'Home', exact: true }).click();
    await readerPage.waitForURL((url) => url.pathname === '/');
    await readerPage.getByRole('link', { name: newTitle }).first().click();
    await readerPage.getByRole('heading', { level: 1, name: newTitle }).waitFor();

    // ── A draft is invisible to the reader ─────────────────────────────────────────────────
    const draftTitle = `Unfinished ${Date.now()}`;
    const { status: draftStatus, data: draft } = await api('/post/post-create', {
      method: 'POST',
      token: author.token,
      body: { title: draftTitle, status: 'draft', blocks: [{ id: 'p1', type: 'paragraph', data: { text: 'Not yet' } }] },
    });
    assert.equal(draftStatus, 201);
    await readerPage.goto(`/post/${draft.post.slug}`);
    await readerPage.getByText('Post not found').waitFor();
    await readerPage.goto('/');
    await readerPage.getByRole('tabpanel').getByRole('article').first().waitFor();
    assert.equal(await readerPage.getByRole('link', { name: draftTitle }).count(), 0, 'no draft in Latest');

    // ── The author deletes the post; it leaves every list ──────────────────────────────────
    await writer.goto(`/post/${slug}`);
    await writer.getByRole('link', { name: 'Delete', exact: true }).click();
    await writer.waitForURL(`**/delete-post/${postId}`);
    await writer.getByText(`Delete “${newTitle}”?`).waitFor();
    await writer.getByRole('button', { name: 'Delete post' }).click();
    await writer.waitForURL((url) => url.pathname === '/');
    await writer.locator('.post-feed[aria-busy="false"]').waitFor();
    assert.equal(await writer.getByRole('link', { name: newTitle }).count(), 0, 'gone from the author’s Latest');
    await readerPage.goto('/bookmark');
    await readerPage.getByRole('heading', { name: 'Bookmarks' }).waitFor();
    await readerPage.getByText('No bookmarks yet. Bookmark a post to read it later.').waitFor();
    await readerPage.goto('/');
    await readerPage.getByRole('tab', { name: 'All posts' }).click();
    await readerPage.locator('#panel-all .post-feed[aria-busy="false"]').waitFor();
    assert.equal(await readerPage.getByRole('link', { name: newTitle }).count(), 0, 'gone from the reader’s lists');
    const { status: goneStatus } = await api(`/post/${slug}`, { token: reader.token });
    assert.equal(goneStatus, 404);

    await writer.context().close();
    await readerPage.context().close();
  });

  it('a guest reads a public post with every block type: counts, but no like button', async () => {
    const author = await createAccount('blocks');
    const { status, data } = await api('/post/post-create', {
      method: 'POST',
      token: author.token,
      body: { title: 'Every kind of block', blocks: EVERY_BLOCK, tags: ['showcase', 'editor'] },
    });
    assert.equal(status, 201, JSON.stringify(data));
    const slug = data.post.slug;
    // Someone liked it already.
    const fan = await createAccount('fan');
    await api(`/post/like/${data.post._id}`, { method: 'POST', token: fan.token });

    const page = await newPage(browser);
    await page.addInitScript(() => localStorage.setItem('userCookieConsent', 'false'));
    // The editor's code loads only on the editor's routes: the home page does not download it.
    const scripts = [];
    page.on('request', (request) => request.resourceType() === 'script' && scripts.push(request.url()));
    await page.goto('/');
    await page.locator('.post-feed[aria-busy="false"]').waitFor();
    assert.ok(scripts.length > 0);
    assert.deepEqual(scripts.filter((url) => /post-editor|editorjs/i.test(url)), [], 'no editor code on the home page');
    await page.goto(`/post/${slug}`);
    await waitForShell(page);
    await page.getByRole('heading', { level: 1, name: 'Every kind of block' }).waitFor();
    const body = page.locator('.post-body');
    await body.getByRole('heading', { name: 'A section heading' }).waitFor();
    const nested = body.locator('ol > li > ol > li');
    assert.equal(await nested.count(), 1, `the nested list item: ${await body.locator('ol').first().evaluate((e) => e.outerHTML)}`);
    await body.locator('blockquote', { hasText: 'Simplicity is prerequisite' }).waitFor();
    assert.match(await body.locator('pre code').textContent(), /println!/);
    assert.equal(await body.locator('hr.block-delimiter').count(), 1);
    assert.equal(await body.locator('iframe[sandbox]').getAttribute('src'), 'https://www.youtube.com/embed/aqz-KE-bpKQ');
    await body.getByRole('columnheader', { name: 'Language' }).waitFor();
    assert.equal(await body.getByRole('checkbox', { name: 'Done', exact: true }).count(), 1);
    await page.getByRole('heading', { name: 'Which do you read most?' }).waitFor();
    assert.equal(await page.getByTestId('likes-count').textContent().then((t) => t.trim().charAt(0)), '1');
    assert.equal(await page.getByRole('button', { name: /^Like/ }).count(), 0, 'guests get no like button');
    assert.equal(await page.getByRole('button', { name: /^Bookmark/ }).count(), 0);
    await page.getByText('to like, bookmark and comment.').waitFor();
    await page.getByRole('link', { name: '#showcase' }).waitFor();
    await screenshot(page, 'post-every-block');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'post-every-block-full.png'), fullPage: true });
    await assertAccessible(page, 'the post page (guest)');
    await page.context().close();
  });
});
