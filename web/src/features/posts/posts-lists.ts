/** Edits of the post lists the slice's reducers share (inside Immer drafts). */
import type { Post } from '@/types/entities';
import { LIST_KEYS, postsAdapter, type PostList, type PostsState } from './posts-state';

export function eachList(state: PostsState, fn: (list: PostList) => void) {
  for (const key of LIST_KEYS) fn(state.lists[key]);
}

/** Every copy of a post kept in a list. */
export function eachListedPost(state: PostsState, fn: (post: Post) => void) {
  eachList(state, (list) => Object.values(list.items.entities).forEach(fn));
}

/** Removes the posts `gone` says from a list, lowering its total by as many. */
export function removeWhere(list: PostList, gone: (post: Post) => boolean) {
  const ids = list.items.ids.filter((id) => gone(list.items.entities[id]));
  postsAdapter.removeMany(list.items, ids);
  list.total = Math.max(0, list.total - ids.length);
}

export function removeEverywhere(state: PostsState, postId: string) {
  eachList(state, (list) => removeWhere(list, (p) => p._id === postId));
  if (state.currentPost?._id === postId) state.currentPost = null;
}

/** The post at the front of a list (in place of an earlier copy). */
export function putFirst(list: PostList, post: Post) {
  const had = list.items.entities[post._id] !== undefined;
  postsAdapter.setOne(list.items, post);
  list.items.ids = [post._id, ...list.items.ids.filter((id) => id !== post._id)];
  if (!had) list.total += 1;
}
