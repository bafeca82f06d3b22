import type { AppStore } from './store';
import { currentPostPreloaded } from '@/features/posts';
import type { Post } from '@/types/entities';

/** The id of the element the server fills with a page's data (`src/pages/shell.rs`). */
export const INITIAL_DATA_ID = 'initial-data';

interface InitialData {
  path?: string;
  post?: Post;
}

let serverRendered = false;

/** Whether the server painted this page's content before the app started (no splash then). */
export function wasServerRendered(): boolean {
  return serverRendered;
}

/** Test helper. */
export function setServerRendered(value: boolean) {
  serverRendered = value;
}

/**
 * Notes whether the server rendered the page (its root element arrived with content) and puts
 * the post it rendered into the store, so the first screen the app draws is the same article.
 * Data for another path than the one open is ignored.
 */
export function takeInitialData(store: AppStore, doc: Document = document, pathname = window.location.pathname) {
  serverRendered = (doc.getElementById('root')?.childElementCount ?? 0) > 0;
  const element = doc.getElementById(INITIAL_DATA_ID);
  if (!element?.textContent) return;
  let data: InitialData;
  try {
    data = JSON.parse(element.textContent) as InitialData;
  } catch {
    return;
  }
  element.remove();
  if (data.post && data.path && decodeURIComponent(data.path) === decodeURIComponent(pathname)) {
    store.dispatch(currentPostPreloaded(data.post));
  }
}
