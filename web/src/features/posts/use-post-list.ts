import { useCallback, useEffect, useRef } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { fetchPostList, filterKeyOf, filterOfKey, listPreloadUsed, selectListPosts, type ListFilter, type ListKey } from './posts-slice';

/**
 * One of the post lists for a screen: loads (or refreshes) its first page when the screen opens,
 * when the filter changes and when the viewer changes; gives the next page and a retry. A first
 * page the server drew into the page (preloaded) is shown as it is to a guest, not read again.
 */
export function usePostList(list: ListKey, filter: ListFilter = {}, { enabled = true }: { enabled?: boolean } = {}) {
  const dispatch = useAppDispatch();
  const authInitialized = useAppSelector((state) => state.auth.authInitialized);
  const userId = useAppSelector((state) => state.auth.user?._id ?? null);
  const state = useAppSelector((s) => s.posts.lists[list]);
  const items = useAppSelector((s) => selectListPosts(s, list));
  const key = filterKeyOf(filter);
  const ready = enabled && authInitialized;

  const load = useCallback(() => {
    void dispatch(fetchPostList({ list, filter: filterOfKey(key) }));
  }, [dispatch, list, key]);

  // Taken when the screen opens: a list the server drew for this very filter.
  const preloaded = useRef(Boolean(state.preloaded) && state.filterKey === key);
  useEffect(() => {
    if (!ready) return;
    if (preloaded.current) {
      preloaded.current = false;
      dispatch(listPreloadUsed(list));
      // The server drew what a guest sees; a signed-in reader's list has their own rules.
      if (userId === null) return;
    }
    load();
  }, [ready, load, userId, dispatch, list]);

  const loadMore = useCallback(() => {
    void dispatch(fetchPostList({ list, filter: filterOfKey(key), more: true }));
  }, [dispatch, list, key]);

  // A list shows only what belongs to this filter (another filter's items wait to be replaced).
  const feed = state.filterKey === key ? { ...state, items } : { ...state, items: [], status: ready ? ('loading' as const) : state.status, hasMore: false };
  return { feed, loadMore, retry: load };
}
