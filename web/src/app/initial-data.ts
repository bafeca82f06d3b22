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

/** Whether the server painted this page's article before the app started (no splash then). */
export function wasServerRendered(): boolean {
  return serverRendered;
}

/** Test helper. */
export function setServerRendered(value: boolean) {
  serverRendered = value;
}

/**
 * Puts the post the server rendered into the store, so the first screen the app draws is the
 * same article, and notes that the reader is already looking at it (no splash then). Data for
 * another path than the one open is ignored; list pages, whose cards the app fetches itself, keep
 * the splash.
 */
export function takeInitialData(store: AppStore, doc: Document = document, pathname = window.location.pathname) {
  serverRendered = false;
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
    serverRendered = (doc.getElementById('root')?.childElementCount ?? 0) > 0;
  }
}
