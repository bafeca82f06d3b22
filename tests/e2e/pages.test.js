// Pages for the outside world in Chromium: a post page's article is readable with JavaScript
// turned off (what preview bots, crawlers and reader apps see); with JavaScript the app takes
// over the server's article without a layout shift; a phone fetches the post's thumbnail first,
// as the WebP variant of its size; the share image is a 1200×630 PNG. The home, tag and category
// pages have their first screen of cards without JavaScript, and the app takes them over in
// place: no layout shift, the cards where the server put them, no request for them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, BASE_URL, createAccount, createAdmin, gradientPng, launch, newPage, screenshot } from './helpers.js';

let browser;
let post;
let imagePost;
before(async () => {
  browser = await launch();
  // A site-wide banner (left active by another suite) arrives after the page and moves it down:
  // that is the banner's shift, not the takeover's, which is what this file measures.
  const admin = await createAdmin();
  const cleared = await api('/bannerNotification/delete-all', { method: 'DELETE', token: admin.token });
  assert.ok(cleared.status < 300, `clearing banners answered ${cleared.status}`);
  const author = await createAccount('pages');
  const created = await api('/post/post-create', {
    method: 'POST',
    token: author.token,
    body: {
      title: 'Where rivers meet the sea',
      tags: ['estuary'],
      blocks: [
        { id: 'p1', type: 'paragraph', data: { text: 'Estuaries mix fresh water with salt water, and <b>tides</b> push both ways.' } },
        { id: 'h1', type: 'header', data: { text: 'Brackish water', level: 2 } },
        { id: 'p2', type: 'paragraph', data: { text: 'Fish that live here tolerate changing salinity every day.' } },
        { id: 'l1', type: 'list', data: { style: 'unordered', items: ['mudflats', 'salt marshes', 'mangroves'] } },
      ],
    },
  });
  assert.equal(created.status, 201, JSON.stringify(created.data));
  post = created.data.post;
  const png = gradientPng(800, 400, [20, 80, 160], [200, 220, 240]).toString('base64');
  const withImage = await api('/post/post-create', {
    method: 'POST',
    token: author.token,
    body: {
      title: 'A delta seen from above',
      thumbnail: `data:image/png;base64,${png}`,
      blocks: [
        { id: 'p1', type: 'paragraph', data: { text: 'Sediment fans out where the river slows.' } },
        { id: 'i1', type: 'image', data: { file: { url: `data:image/png;base64,${png}` }, caption: 'The delta' } },
      ],
    },
  });
  assert.equal(withImage.status, 201, JSON.stringify(withImage.data));
  imagePost = withImage.data.post;
});
after(async () => {
  await browser?.close();
});

describe('server-rendered pages', () => {
  it('a post is readable with JavaScript disabled', async () => {
    const context = await browser.newContext({ baseURL: BASE_URL, javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const response = await page.goto(`/post/${post.slug}`);
    assert.equal(response.status(), 200);
    await page.getByRole('heading', { level: 1, name: 'Where rivers meet the sea' }).waitFor();
    assert.ok(await page.getByText('Estuaries mix fresh water with salt water').isVisible());
    assert.ok(await page.getByRole('heading', { level: 2, name: 'Brackish water' }).isVisible());
    assert.ok(await page.getByText('salt marshes').isVisible());
    assert.equal(await page.title(), 'Where rivers meet the sea · Pressroom');
    await screenshot(page, 'pages-post-no-javascript');
    const missing = await context.newPage();
    const notFound = await missing.goto('/post/no-such-post-anywhere');
    assert.equal(notFound.status(), 404);
    await context.close();
  });

  for (const [name, which] of [['a text post', () => post], ['a post with images', () => imagePost]]) {
    it(`the app takes over ${name} without a layout shift`, async () => {
      const page = await newPage(browser, { viewport: { width: 390, height: 844 } });
      await page.addInitScript(() => {
        window.__shifts = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            if (!entry.hadRecentInput) window.__shifts.push(entry.value);
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      const target = which();
      await page.goto(`/post/${target.slug}`);
      // The app has taken over: its top bar is there and the article is the app's.
      await page.getByRole('banner').waitFor();
      await page.getByRole('heading', { level: 1, name: target.title }).waitFor();
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(1500);
      const shifts = await page.evaluate(() => window.__shifts);
      const cls = shifts.reduce((a, b) => a + b, 0);
      await screenshot(page, `pages-takeover-${target.slug.slice(0, 20)}`);
      assert.ok(cls <= 0.02, `layout shift ${cls} (${JSON.stringify(shifts)}); console: ${page.consoleErrors.join(' | ')}`);
      await page.context().close();
    });
  }

  it('a phone fetches the thumbnail first, as a WebP its size, with its space reserved', async () => {
    const author = await createAccount('pictures');
    const wide = gradientPng(1600, 900, [180, 60, 30], [250, 200, 80]).toString('base64');
    const created = await api('/post/post-create', {
      method: 'POST',
      token: author.token,
      body: {
        title: 'Dunes at sunset',
        thumbnail: `data:image/png;base64,${wide}`,
        blocks: [
          { id: 'p1', type: 'paragraph', data: { text: 'The wind shapes the sand into long ridges.' } },
          { id: 'i1', type: 'image', data: { file: { url: `data:image/png;base64,${wide}` }, caption: 'Ridges' } },
        ],
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.data));
    const dunes = created.data.post;
    assert.equal(dunes.thumbnailImage.width, 1600);
    // A phone: 390 CSS pixels at twice the density wants about 780 pixels: the 800-wide WebP.
    const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    const fetched = [];
    context.on('request', (request) => {
      if (request.url().includes('/media/')) fetched.push(new URL(request.url()).pathname);
    });
    // The server's page, before any script: the browser picks from the <picture>.
    await context.route(/\.js$/, (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`/post/${dunes.slug}`);
    const ssr = page.locator('figure.thumbnail img');
    await ssr.waitFor();
    await page.waitForFunction(() => document.querySelector('figure.thumbnail img')?.complete);
    const server = await ssr.evaluate((img) => ({
      current: img.currentSrc,
      priority: img.getAttribute('fetchpriority'),
      loading: img.getAttribute('loading'),
      width: img.getAttribute('width'),
      height: img.getAttribute('height'),
      box: [img.getBoundingClientRect().width, img.getBoundingClientRect().height],
      source: img.parentElement.querySelector('source')?.type,
    }));
    assert.equal(server.priority, 'high');
    assert.equal(server.loading, 'eager');
    assert.deepEqual([server.width, server.height], ['1600', '900']);
    assert.equal(server.source, 'image/webp');
    assert.match(server.current, /-800\.webp$/, JSON.stringify(server));
    assert.ok(fetched.some((p) => p.endsWith('-800.webp')), `fetched: ${fetched.join(', ')}`);
    assert.ok(server.box[0] > 300 && Math.abs(server.box[1] / server.box[0] - 900 / 1600) < 0.02, `thumbnail box ${server.box}`);
    assert.ok(!fetched.includes(dunes.thumbnail), `the 1600-pixel original was fetched: ${fetched.join(', ')}`);
    await screenshot(page, 'pages-picture-server-webp');
    await page.close();

    // The app's page: the same choice, from the same component for the thumbnail and the blocks.
    await context.unroute(/\.js$/);
    const app = await context.newPage();
    await app.goto(`/post/${dunes.slug}`);
    await app.getByRole('banner').waitFor();
    const thumb = app.locator('img.post__thumb');
    await thumb.waitFor();
    await app.waitForFunction(() => document.querySelector('img.post__thumb')?.complete);
    const got = await thumb.evaluate((img) => ({
      current: img.currentSrc,
      priority: img.getAttribute('fetchpriority'),
      loading: img.getAttribute('loading'),
      decoding: img.getAttribute('decoding'),
      width: img.getAttribute('width'),
    }));
    assert.equal(got.priority, 'high');
    assert.equal(got.loading, 'eager');
    assert.equal(got.decoding, 'async');
    assert.equal(got.width, '1600');
    assert.match(got.current, /-800\.webp$/, JSON.stringify(got));
    const block = await app.locator('.block-image img').evaluate((img) => ({
      loading: img.getAttribute('loading'),
      width: img.getAttribute('width'),
      sizes: img.getAttribute('sizes'),
      source: img.parentElement.tagName,
    }));
    assert.deepEqual(block, { loading: 'lazy', width: '1600', sizes: '(max-width: 760px) 100vw, 720px', source: 'PICTURE' });
    await screenshot(app, 'pages-picture-app-webp');
    await context.close();
  });

  it('the share image is a 1200×630 PNG', async () => {
    const page = await newPage(browser);
    await page.goto(`/post/${imagePost.slug}`);
    const image = await page.locator('meta[property="og:image"]').getAttribute('content');
    const local = image.replace(/^https?:\/\/[^/]+/, '');
    const response = await page.request.get(local);
    assert.equal(response.status(), 200);
    assert.equal(response.headers()['content-type'], 'image/png');
    const size = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    }, local);
    assert.deepEqual(size, [1200, 630]);
    const card = await page.request.get(
      (await (async () => {
        await page.goto(`/post/${post.slug}`);
        return page.locator('meta[property="og:image"]').getAttribute('content');
      })()).replace(/^https?:\/\/[^/]+/, ''),
    );
    assert.equal(card.status(), 200);
    await page.setViewportSize({ width: 1200, height: 630 });
    await page.goto(local);
    await screenshot(page, 'pages-share-image-thumbnail');
    await page.context().close();
  });
});

describe('server-rendered list pages', () => {
  const word = Date.now().toString(36);
  const tag = `shore${word}`;
  let category;
  let author;
  const titles = [];
  before(async () => {
    author = await createAccount('cards');
    const made = await api('/category/', { method: 'POST', token: author.token, body: { name: `Coasts ${word}`, slug: `coasts-${word}`, description: 'Where the land ends and the sea begins.' } });
    assert.equal(made.status, 201, JSON.stringify(made.data));
    category = made.data.category;
    const colours = [[200, 80, 40], [30, 120, 90], [60, 60, 160], [150, 150, 20]];
    for (let i = 0; i < 4; i += 1) {
      const png = gradientPng(640, 360, colours[i], [240, 240, 240]).toString('base64');
      const title = `Shoreline ${i + 1}: ${['dunes', 'cliffs', 'salt marsh', 'lagoon'][i]}`;
      const created = await api('/post/post-create', {
        method: 'POST',
        token: author.token,
        body: {
          title,
          tags: [tag, 'coast'],
          category: category._id,
          thumbnail: i % 2 === 0 ? `data:image/png;base64,${png}` : undefined,
          blocks: [{ id: 'p1', type: 'paragraph', data: { text: `${title} shape the coast in their own way, season after season, and the tide keeps time.` } }],
        },
      });
      assert.equal(created.status, 201, JSON.stringify(created.data));
      titles.unshift(title);
    }
  });

  const lists = () => [
    ['home', '/', 'Stories'],
    ['tag', `/tag/${tag}`, `#${tag}`],
    ['category', `/category/${category.slug}`, category.name],
    ['author', `/author-profile/${author.id}`, author.fullName],
  ];

  /**
   * Where the page's heading and first cards' titles are, from the top of the app's root element
   * (without JavaScript the page's `<noscript>` line stands above it).
   */
  const places = (page) =>
    page.evaluate(() => {
      const top = document.getElementById('root').getBoundingClientRect().y;
      return [...document.querySelectorAll('main h1, main .post-card__title')].slice(0, 5).map((el) => {
        const r = el.getBoundingClientRect();
        return { text: el.textContent.trim(), x: Math.round(r.x), y: Math.round(r.y - top), w: Math.round(r.width), h: Math.round(r.height) };
      });
    });

  for (const width of [390, 1280]) {
    it(`the cards are there before any JavaScript runs, and the app takes them over in place (${width} px)`, async () => {
      const viewport = { width, height: width === 390 ? 844 : 860 };
      const plain = await browser.newContext({ baseURL: BASE_URL, javaScriptEnabled: false, viewport });
      const still = await plain.newPage();
      const live = await newPage(browser, { viewport });
      await live.addInitScript(() => {
        window.__shifts = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            if (!entry.hadRecentInput) window.__shifts.push({ value: entry.value, nodes: entry.sources?.map((s) => s.node?.className ?? s.node?.nodeName ?? '') ?? [] });
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      const listRequests = [];
      live.on('request', (request) => {
        if (/\/api\/post\/(public\/posts|latest-post\/latest|user\/[^/]+\/posts)/.test(request.url())) listRequests.push(request.url());
      });
      for (const [name, path, heading] of lists()) {
        // Without JavaScript: the page's heading and its first screen of cards.
        const response = await still.goto(path);
        assert.equal(response.status(), 200, path);
        await still.getByRole('heading', { level: 1, name: new RegExp(`^${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).waitFor();
        const cards = still.locator('main article.post-card');
        assert.ok((await cards.count()) >= (name === 'home' ? 4 : 4), `${path}: ${await cards.count()} cards`);
        if (name !== 'home') {
          assert.deepEqual(await cards.locator('.post-card__title').allTextContents(), titles, path);
        }
        assert.ok(await cards.first().isVisible(), path);
        assert.ok(await still.getByRole('link', { name: titles[0] }).first().isVisible(), path);
        await screenshot(still, `pages-${name}-no-javascript-${width}`);
        const before = await places(still);

        // With JavaScript: the app's own page, drawn where the server's was.
        listRequests.length = 0;
        await live.goto(path);
        await live.locator('footer.footer').waitFor();
        await live.getByRole('heading', { level: 1, name: new RegExp(`^${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).waitFor();
        await live.waitForLoadState('networkidle');
        await live.waitForTimeout(1200);
        const shifts = await live.evaluate(() => window.__shifts.splice(0));
        const cls = shifts.reduce((a, b) => a + b.value, 0);
        await screenshot(live, `pages-${name}-takeover-${width}`);
        assert.ok(cls <= 0.02, `${path}: layout shift ${cls} (${JSON.stringify(shifts)}); console: ${live.consoleErrors.join(' | ')}`);
        const after = await places(live);
        assert.deepEqual(after.map((p) => p.text), before.map((p) => p.text), path);
        for (let i = 0; i < before.length; i += 1) {
          const [a, b] = [before[i], after[i]];
          assert.ok(Math.abs(a.y - b.y) <= 2 && Math.abs(a.x - b.x) <= 2 && Math.abs(a.h - b.h) <= 2, `${path}: "${a.text}" moved from ${JSON.stringify(a)} to ${JSON.stringify(b)}`);
        }
        assert.deepEqual(listRequests, [], `${path}: the app asked again for the list it was given`);
        assert.equal(await live.getByTestId('splash').count(), 0, path);
      }
      await plain.close();
      await live.context().close();
    });
  }
});
