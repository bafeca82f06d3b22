// Tips in Chromium against the real server (the `local` test-mode provider): an administrator
// lowers the eligibility criteria; a writer sets their suggested amounts, then writes and
// publishes a post with a "Support this post" block in its body; a reader tips it from the card
// under the post (a double click on Pay makes one tip) with a message and their name public; the
// writer's open tab shows the live toast (and the bell the notification), their earnings the tip row with the post's title, the
// supporters list the reader's name and message; the writer hides the message and the reader no
// longer sees it; the reader refunds it from their payments. axe-core finds no serious or critical violation on the post page with the card
// or on the writer's earnings and tips screens.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createAccount, createAdmin, launch, screenshot, seriousAccessibilityViolations, signedInPage } from './helpers.js';

let browser;
before(async () => {
  browser = await launch();
  // Any writer may take tips once the criteria are lowered (as for selling plans).
  const admin = await createAdmin();
  const lowered = { minFollowers: 0, minPosts: 0, minEngagementRate: 0, minAccountAgeDays: 0 };
  const { status, data } = await api('/admin/subscriptions/criteria', { method: 'PATCH', token: admin.token, body: lowered });
  assert.equal(status, 200, JSON.stringify(data));
});
after(async () => {
  await browser?.close();
});

async function noSeriousViolations(page, what) {
  assert.deepEqual(await seriousAccessibilityViolations(page), [], what);
}

/** Opens Editor.js's toolbox on the current (empty) block and picks a tool by its title. */
async function addBlock(page, title) {
  await page.locator('.ce-block').last().hover();
  await page.locator('.ce-toolbar__plus').click();
  await page.locator('.ce-popover--opened .ce-popover-item', { hasText: title }).first().click();
}

const socketConnected = (page) => page.locator('[data-testid="online-indicator"][data-socket-status="connected"]').waitFor();

describe('tips', () => {
  it('a reader tips a post once; the writer sees it live, in earnings and on the supporters list, and hides the message', async () => {
    const writerAccount = await createAccount('tipwriter');
    const readerAccount = await createAccount('tipreader');
    const writer = await signedInPage(browser, writerAccount);

    // The writer chooses the amounts the card suggests (Plans & earnings → Tips).
    await writer.goto(`/plans/${writerAccount.id}?tab=tips`);
    const settings = writer.getByTestId('tip-settings');
    const amounts = settings.getByLabel('Suggested amounts');
    await writer.waitForFunction((el) => el.value !== '', await amounts.elementHandle());
    await amounts.fill('3, 5, 10');
    await settings.getByRole('button', { name: 'Save tip settings' }).click();
    await settings.getByText('Tip settings saved').waitFor();
    const { data: saved } = await api('/tips/settings', { token: writerAccount.token });
    assert.deepEqual(saved.settings.suggestedAmounts, [300, 500, 1000]);

    // The writer writes a post with a "Support this post" block between two paragraphs.
    await writer.getByRole('link', { name: 'Write' }).click();
    await writer.waitForURL('**/createPost');
    await writer.locator('.ce-paragraph').first().waitFor();
    const title = `Lighthouse letters ${Date.now()}`;
    await writer.getByLabel('Title').fill(title);
    await writer.locator('.ce-paragraph').first().click();
    await writer.keyboard.type('The keeper answered every letter, one each evening.');
    await writer.keyboard.press('Enter');
    await addBlock(writer, 'Support this post');
    await writer.getByRole('group', { name: 'Support this post card' }).waitFor();
    await writer.getByLabel('Publish now').check();
    await writer.getByRole('button', { name: 'Publish', exact: true }).click();
    await writer.waitForURL('**/post/**');
    await writer.getByRole('heading', { level: 1, name: title }).waitFor();
    const slug = new URL(writer.url()).pathname.split('/').pop();
    const { data: published } = await api(`/post/${slug}`, { token: writerAccount.token });
    assert.ok(
      published.post.blocks.some((b) => b.type === 'tip'),
      `the post keeps its tip block: ${JSON.stringify(published.post.blocks.map((b) => b.type))}`,
    );
    // Their own post tells them what readers see instead of offering them to pay.
    await writer.locator('[data-testid="support-card"][data-placement="end"]').getByText(/Signed-in readers see a support card here/).waitFor();
    assert.equal(await writer.getByRole('button', { name: /^Pay/ }).count(), 0);
    await socketConnected(writer);

    // A reader opens the post: the card in the body and the one under the post.
    const reader = await signedInPage(browser, readerAccount);
    await reader.goto(`/post/${slug}`);
    await reader.locator('.post-body [data-testid="support-card"][data-placement="body"]').waitFor();
    const card = reader.locator('[data-testid="support-card"][data-placement="end"]');
    await card.getByRole('heading', { name: 'Support this post' }).waitFor();
    await card.getByText('test mode — no real money').waitFor();
    const radios = card.getByRole('group', { name: 'Amount' }).getByRole('radio');
    assert.equal(await radios.count(), 4, 'three suggested amounts and Other amount');
    await card.getByRole('radio', { name: '$5.00' }).check();
    await card.getByLabel('Message (optional)').fill('Thanks for this!');
    await card.getByText('16/280 characters').waitFor();
    await card.getByLabel('Show my name on the supporters list').check();
    const split = card.getByTestId('tip-split');
    assert.match(await split.textContent(), /You pay\$5\.00/);
    assert.match(await split.textContent(), /Platform fee \([\d.]+%\)\$\d+\.\d\d/);
    assert.match(await split.textContent(), new RegExp(`${writerAccount.fullName} receives\\$\\d+\\.\\d\\d`));
    await card.scrollIntoViewIfNeeded();
    await screenshot(reader, 'tips-post');
    await noSeriousViolations(reader, 'the post page with the support card');

    // A double click on Pay makes one tip; the writer's open tab hears of it at once.
    const toast = writer.getByTestId('toaster').getByText(`${readerAccount.fullName} tipped you $5.00: “Thanks for this!”`);
    const toastShown = toast.waitFor();
    await card.getByRole('button', { name: 'Pay $5.00' }).dblclick();
    await card.getByText('Thank you for your tip').waitFor();
    await toastShown;
    await screenshot(writer, 'tips-toast');
    // A stored notification too, in the bell.
    await writer.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    await writer.getByText(`${readerAccount.fullName} tipped $5 on '${title}': 'Thanks for this!'`).waitFor();
    await writer.keyboard.press('Escape');
    const { data: sent } = await api('/tips/sent', { token: readerAccount.token });
    assert.equal(sent.tips.length, 1, `one tip: ${JSON.stringify(sent.tips)}`);
    assert.equal(sent.tips[0].amount, 500);
    assert.equal(sent.tips[0].message, 'Thanks for this!');
    assert.equal(sent.tips[0].public, true);
    assert.equal(sent.tips[0].status, 'succeeded');

    // The supporters list shows the reader's name and message.
    const supporters = reader.getByTestId('supporters');
    const entry = supporters.getByTestId('supporter').filter({ hasText: readerAccount.fullName });
    await entry.getByText('Thanks for this!').waitFor();
    await supporters.scrollIntoViewIfNeeded();
    await screenshot(reader, 'tips-supporters');

    // The writer's earnings show the tip with the post's title, and the Tips tab lists it.
    await writer.goto(`/plans/${writerAccount.id}?tab=earnings`);
    await writer.getByRole('cell', { name: `Tip · ${title}` }).waitFor();
    await screenshot(writer, 'tips-earnings');
    await noSeriousViolations(writer, 'the earnings tab');
    await writer.getByRole('tab', { name: 'Tips' }).click();
    const received = writer.getByTestId('tip-received').filter({ hasText: readerAccount.fullName });
    await received.getByRole('link', { name: title }).waitFor();
    assert.match(await received.textContent(), /\$5\.00/);
    await screenshot(writer, 'tips-received');
    await noSeriousViolations(writer, 'the tips tab');

    // The writer hides the message from the supporters list; the reader no longer sees it.
    await writer.goto(`/post/${slug}`);
    const mine = writer.getByTestId('supporters').getByTestId('supporter').filter({ hasText: readerAccount.fullName });
    await mine.getByRole('button', { name: `Hide the message of ${readerAccount.fullName}` }).click();
    await mine.getByText('message hidden from readers').waitFor();
    await reader.reload();
    const after = reader.getByTestId('supporters').getByTestId('supporter').filter({ hasText: readerAccount.fullName });
    await after.waitFor();
    assert.equal(await after.getByText('Thanks for this!').count(), 0, 'the hidden message is gone for readers');
    const { data: hidden } = await api(`/post/${published.post._id}/supporters`);
    assert.equal(hidden.supporters[0].message, null);

    // The reader finds the tip in their payments and refunds it (a reason; the password is asked
    // again if the server wants a recent one, as for subscription refunds).
    await reader.getByRole('button', { name: 'Account menu' }).click();
    await reader.getByRole('menuitem', { name: 'My subscriptions' }).click();
    const mySent = reader.getByTestId('tips-sent').getByTestId('tip-sent').filter({ hasText: title });
    await mySent.getByText('succeeded').waitFor();
    await screenshot(reader, 'tips-sent');
    await noSeriousViolations(reader, 'my subscriptions with the tips sent');
    await mySent.getByRole('button', { name: `Refund $5.00 to ${writerAccount.fullName}` }).click();
    const dialog = reader.getByRole('dialog', { name: 'Refund this tip' });
    await dialog.getByLabel('Reason').fill('Tipped the wrong post.');
    await dialog.getByRole('button', { name: 'Refund' }).click();
    const stepUp = reader.getByRole('dialog', { name: 'Confirm it’s you' });
    const done = reader.getByText('Tip refunded');
    await Promise.race([stepUp.waitFor(), done.waitFor()]);
    if (await stepUp.isVisible()) {
      await stepUp.getByLabel('Password').fill(readerAccount.password);
      await stepUp.getByRole('button', { name: 'Confirm' }).click();
    }
    await done.waitFor();
    await mySent.getByText('refunded').waitFor();
    const { data: refunded } = await api('/tips/sent', { token: readerAccount.token });
    assert.deepEqual(
      refunded.tips.map((t) => t.status),
      ['refunded'],
    );

    for (const page of [writer, reader]) await page.context().close();
  });
});
