/** Edits of the post lists the slice's reducers share (inside Immer drafts). */
import type { Post } from '@/types/entities';
import { LIST_KEYS, type PostList, type PostsState } from './posts-state';

/** `items` followed by those of `more` not already in it. */
export function appendUnique(items: Post[], more: Post[]): Post[] {
  const seen = new Set(items.map((p) => p._id));
  const out = [...items];
  for (const p of more) {
    if (!seen.has(p._id)) {
      seen.add(p._id);
      out.push(p);
    }
  }
  return out;
}

export function eachList(state: PostsState, fn: (list: PostList) => void) {
  for (const key of LIST_KEYS) fn(state.lists[key]);
}

export function removeEverywhere(state: PostsState, postId: string) {
  eachList(state, (list) => {
    const before = list.items.length;
    list.items = list.items.filter((p) => p._id !== postId);
    if (list.items.length !== before) list.total = Math.max(0, list.total - 1);
  });
  if (state.currentPost?._id === postId) state.currentPost = null;
}

export function putFirst(list: PostList, post: Post) {
  const had = list.items.some((p) => p._id === post._id);
  list.items = [post, ...list.items.filter((p) => p._id !== post._id)];
  if (!had) list.total += 1;
}
