// The page the server painted: its post goes into the store so the app draws the same article.
import { setupStore } from '@/app/store';
import { itemsOf } from '@/features/posts';
import { guestAuth } from '@/test/render';
import { preloadedCategory, preloadedHasPlans, preloadedSeries, takeInitialData, wasServerRendered } from './initial-data';

function page(root: string, data?: string): Document {
  const doc = document.implementation.createHTMLDocument('t');
  doc.body.innerHTML = `<div id="root">${root}</div>`;
  if (data !== undefined) {
    const script = doc.createElement('script');
    script.type = 'application/json';
    script.id = 'initial-data';
    script.textContent = data;
    doc.head.appendChild(script);
  }
  return doc;
}

const post = { _id: 'p1', slug: 'tides', title: 'Tides', blocks: [] };

describe('initial data', () => {
  it('puts the rendered post into the store for its own path and notes the server-rendered page', () => {
    const store = setupStore({ auth: guestAuth() });
    const doc = page('<main><article>Tides</article></main>', JSON.stringify({ path: '/post/tides', post }));
    takeInitialData(store, doc, '/post/tides');
    expect(wasServerRendered()).toBe(true);
    expect(store.getState().posts.currentPost?.slug).toBe('tides');
    expect(store.getState().posts.currentStatus).toBe('succeeded');
    expect(doc.getElementById('initial-data')).toBeNull();
  });

  it('ignores data for another path and broken data; a list page keeps the splash', () => {
    const store = setupStore({ auth: guestAuth() });
    takeInitialData(store, page('<main>article</main>', JSON.stringify({ path: '/post/other', post })), '/post/tides');
    expect(wasServerRendered()).toBe(false);
    expect(store.getState().posts.currentPost).toBeNull();
    takeInitialData(store, page('<p>x</p>', '{not json'), '/post/tides');
    expect(store.getState().posts.currentPost).toBeNull();
    expect(wasServerRendered()).toBe(false);
    takeInitialData(store, page('<main><ul class="post-grid"></ul></main>'), '/');
    expect(wasServerRendered()).toBe(false);
  });

  it('puts a list page\'s first page of cards, its counts and its category into the store', () => {
    const store = setupStore({ auth: guestAuth() });
    const posts = [post, { ...post, _id: 'p2', slug: 'waves' }];
    const data = {
      path: '/category/sea',
      list: { key: 'publicPosts', filter: { category: 'sea' }, posts, total: 30 },
      counts: { allPostsCount: 30 },
      category: { _id: 'c1', name: 'Sea', slug: 'sea', description: 'Salt water' },
    };
    takeInitialData(store, page('<div class="shell"></div>', JSON.stringify(data)), '/category/sea/');
    expect(wasServerRendered()).toBe(true);
    const list = store.getState().posts.lists.publicPosts;
    expect(itemsOf(list).map((p) => p._id)).toEqual(['p1', 'p2']);
    expect(list.status).toBe('succeeded');
    expect(list.preloaded).toBe(true);
    expect(list.hasMore).toBe(true);
    expect(list.filterKey).toBe(JSON.stringify(['', 'sea', '', '', '', '']));
    expect(store.getState().posts.counts.allPostsCount).toBe(30);
    expect(preloadedCategory('sea')?.description).toBe('Salt water');
    expect(preloadedCategory('c1')?.name).toBe('Sea');
    expect(preloadedCategory('lake')).toBeUndefined();
  });

  it("puts an author page's profile and their first posts into the store", () => {
    const store = setupStore({ auth: guestAuth() });
    const profile = { _id: 'u7', name: 'Mara Coast', followersCount: 3, followingCount: 1, totalPosts: 1, isOnline: false };
    const data = { path: '/author-profile/u7', list: { key: 'userPosts', filter: { userId: 'u7', sort: 'newest' }, posts: [post], total: 1 }, profile, hasPlans: true };
    takeInitialData(store, page('<div class="shell"></div>', JSON.stringify(data)), '/author-profile/u7');
    expect(wasServerRendered()).toBe(true);
    expect(store.getState().users.selectedUser?.name).toBe('Mara Coast');
    expect(store.getState().users.selectedStatus).toBe('succeeded');
    expect(store.getState().posts.lists.userPosts.filterKey).toBe(JSON.stringify(['', '', '', '', 'u7', 'newest']));
    expect(preloadedHasPlans('u7')).toBe(true);
    expect(preloadedHasPlans('u8')).toBeUndefined();
  });

  it("keeps a series page's series for the page to draw first, by slug or id, until other data comes", () => {
    const store = setupStore({ auth: guestAuth() });
    const series = { _id: 's1', slug: 'long-walk', title: 'The Long Walk' };
    const data = { path: '/series/long-walk', series: { series, parts: [], progress: { read: 0, total: 0 } } };
    takeInitialData(store, page('<main><h1>The Long Walk</h1></main>', JSON.stringify(data)), '/series/long-walk');
    expect(wasServerRendered()).toBe(true);
    expect(preloadedSeries('long-walk')?.series.title).toBe('The Long Walk');
    expect(preloadedSeries('s1')?.series.slug).toBe('long-walk');
    expect(preloadedSeries('other')).toBeUndefined();
    // Another page's data (a post) forgets it; a series without its parts is not taken.
    takeInitialData(store, page('<main>x</main>', JSON.stringify({ path: '/post/tides', post })), '/post/tides');
    expect(preloadedSeries('long-walk')).toBeUndefined();
    takeInitialData(store, page('<main>x</main>', JSON.stringify({ path: '/series/long-walk', series: { series } })), '/series/long-walk');
    expect(preloadedSeries('long-walk')).toBeUndefined();
    expect(wasServerRendered()).toBe(false);
  });

  it('ignores a list for another page or of a list no page preloads', () => {
    const store = setupStore({ auth: guestAuth() });
    const list = { key: 'publicPosts', filter: { tag: 'sea' }, posts: [post], total: 1 };
    takeInitialData(store, page('<div></div>', JSON.stringify({ path: '/tag/sea', list })), '/tag/lake');
    expect(itemsOf(store.getState().posts.lists.publicPosts)).toEqual([]);
    expect(wasServerRendered()).toBe(false);
    takeInitialData(store, page('<div></div>', JSON.stringify({ path: '/tag/sea', list: { ...list, key: 'posts' } })), '/tag/sea');
    expect(itemsOf(store.getState().posts.lists.posts)).toEqual([]);
    expect(wasServerRendered()).toBe(false);
  });
});
