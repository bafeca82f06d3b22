import { dequal } from 'dequal';
import type { Post } from '@/types/entities';

/**
 * `next`, keeping `shown`'s object for each of its fields that did not change (and `shown`
 * itself when nothing did): memoised parts of the page then skip what is the same.
 */
export function sharedWith(shown: Post | null, next: Post): Post {
  if (!shown || shown._id !== next._id) return next;
  if (dequal(shown, next)) return shown;
  const merged: Record<string, unknown> = { ...next };
  const before = shown as unknown as Record<string, unknown>;
  for (const key of Object.keys(merged)) {
    if (key in before && dequal(before[key], merged[key])) merged[key] = before[key];
  }
  return merged as unknown as Post;
}
