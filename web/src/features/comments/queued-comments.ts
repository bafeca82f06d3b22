/**
 * Comments written while the server could not be reached, shown in their thread until they are
 * sent: the queue (features/offline) is their one source, so a reload shows them as before and
 * a sent one is never shown twice.
 */
import type { QueuedComment } from '@/lib/offline-db';
import { localComment, type Comment } from './comments-slice';

export const QUEUED_ID_PREFIX = 'queued-';

/** A queued comment as the thread shows it. */
export function queuedAsComment(entry: QueuedComment): Comment {
  return localComment({
    _id: `${QUEUED_ID_PREFIX}${entry.key}`,
    post: entry.postId,
    content: entry.content,
    parent: entry.parentId,
    user: entry.author._id,
    userData: entry.author,
    createdAt: new Date(entry.createdAt).toISOString(),
    queued: { key: entry.key, error: entry.error ?? null },
  });
}

/**
 * The thread with the queued comments in it: a reply under its parent when the parent is shown,
 * at the end otherwise. `added` is how many there are.
 */
export function withQueued(items: Comment[], queued: QueuedComment[]): { items: Comment[]; added: number } {
  if (queued.length === 0) return { items, added: 0 };
  const replies = new Map<string, Comment[]>();
  const top: Comment[] = [];
  const ids = new Set<string>();
  const collect = (list: Comment[]) => {
    for (const c of list) {
      ids.add(c._id);
      collect(c.replies ?? []);
    }
  };
  collect(items);
  for (const entry of queued) {
    const comment = queuedAsComment(entry);
    if (entry.parentId && ids.has(entry.parentId)) replies.set(entry.parentId, [...(replies.get(entry.parentId) ?? []), comment]);
    else top.push(comment);
  }
  const place = (list: Comment[]): Comment[] =>
    list.map((c) => {
      const more = replies.get(c._id) ?? [];
      const inner = place(c.replies ?? []);
      return more.length === 0 && inner.every((r, i) => r === c.replies[i]) ? c : { ...c, replies: [...inner, ...more], repliesCount: c.repliesCount + more.length };
    });
  return { items: [...place(items), ...top], added: queued.length };
}
