// The page the server painted: its post goes into the store so the app draws the same article.
import { setupStore } from '@/app/store';
import { guestAuth } from '@/test/render';
import { takeInitialData, wasServerRendered } from './initial-data';

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
    takeInitialData(store, page('<main><ul class="cards"></ul></main>'), '/');
    expect(wasServerRendered()).toBe(false);
  });
});
