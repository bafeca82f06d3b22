import type { AppStore } from './store';
import { countsPreloaded, currentPostPreloaded, listPreloaded, type ListFilter, type ListKey } from '@/features/posts';
import { selectedUserPreloaded } from '@/features/users/users-slice';
import type { Answer } from '@/api';
import type { Category, Post, PostCounts, UserProfile } from '@/types/entities';

/** The id of the element the server fills with a page's data (`src/pages/shell.rs`). */
export const INITIAL_DATA_ID = 'initial-data';

interface InitialData {
  path?: string;
  post?: Post;
  /** The first page of the list a list page shows (home, tag, category). */
  list?: { key: ListKey; filter?: ListFilter; posts: Post[]; total: number };
  counts?: Partial<PostCounts>;
  /** The category a category page is about. */
  category?: Pick<Category, '_id' | 'name' | 'slug' | 'description'>;
  /** An author's page: their profile as a guest sees it, and whether they sell subscriptions. */
  profile?: UserProfile;
  hasPlans?: boolean;
  /** A series page: the series and its visible parts as a guest sees them. */
  series?: Answer<'/api/series/{series}', 'get'>;
}

/** Lists a page may preload (those its screen reads with `usePostList`). */
const PRELOADABLE: ListKey[] = ['latestPosts', 'publicPosts', 'userPosts'];

let serverRendered = false;
let category: InitialData['category'] = undefined;
let series: InitialData['series'] = undefined;
let plansOf: string | null = null;

/** Whether the server's author page said this author sells subscriptions (`undefined`: it did not say). */
export function preloadedHasPlans(authorId: string): boolean | undefined {
  return plansOf === authorId ? true : plansAsked === authorId ? false : undefined;
}
let plansAsked: string | null = null;

/** The category the server's page was about, when it is the one named (by slug or id). */
export function preloadedCategory(named: string): InitialData['category'] {
  return category && (category.slug === named || category._id === named) ? category : undefined;
}

/**
 * The series the server's page showed, as a guest sees it, when it is the one named (by slug or
 * id): it stands in until the reader's own answer (what they follow and have read) arrives.
 */
export function preloadedSeries(named: string): InitialData['series'] {
  const found = series?.series;
  return found && (found.slug === named || found._id === named) ? series : undefined;
}

/** Whether the server painted this page's article before the app started (no splash then). */
export function wasServerRendered(): boolean {
  return serverRendered;
}

/** Test helper. */
export function setServerRendered(value: boolean) {
  serverRendered = value;
}

/**
 * Puts what the server rendered into the store (a post page's post; a list page's first page of
 * cards, the counts, its category), so the first screen the app draws is the same page, and notes
 * that the reader is already looking at it (no splash then). Data for another path than the one
 * open is ignored.
 */
export function takeInitialData(store: AppStore, doc: Document = document, pathname = window.location.pathname) {
  serverRendered = false;
  category = undefined;
  series = undefined;
  plansOf = null;
  plansAsked = null;
  const element = doc.getElementById(INITIAL_DATA_ID);
  if (!element?.textContent) return;
  let data: InitialData;
  try {
    data = JSON.parse(element.textContent) as InitialData;
  } catch {
    return;
  }
  element.remove();
  if (!data.path || !samePath(data.path, pathname)) return;
  const painted = (doc.getElementById('root')?.childElementCount ?? 0) > 0;
  if (data.post) {
    store.dispatch(currentPostPreloaded(data.post));
    serverRendered = painted;
  } else if (data.series?.series && Array.isArray(data.series.parts)) {
    series = data.series;
    serverRendered = painted;
  } else if (data.list && PRELOADABLE.includes(data.list.key) && Array.isArray(data.list.posts)) {
    const { key, filter = {}, posts, total } = data.list;
    store.dispatch(listPreloaded({ list: key, filter, posts, total: Number(total) || 0 }));
    if (data.counts) store.dispatch(countsPreloaded(data.counts));
    category = data.category;
    if (data.profile?._id) {
      store.dispatch(selectedUserPreloaded(data.profile));
      plansAsked = data.profile._id;
      plansOf = data.hasPlans ? data.profile._id : null;
    }
    serverRendered = painted;
  }
}

function samePath(a: string, b: string): boolean {
  const norm = (p: string) => {
    try {
      return decodeURIComponent(p).replace(/\/+$/, '') || '/';
    } catch {
      return p;
    }
  };
  return norm(a) === norm(b);
}
