/** Queueing from a post's comments, which loads the queue's code (queue.ts) when used. */
import type { QueuedComment } from '@/lib/offline-db';
import { isUnreachable } from './lazy';

/**
 * When `error` says the server could not be reached, queues the comment under the idempotency
 * key its first try was sent with and resolves true; false otherwise.
 */
export async function queueCommentIfUnreachable(error: unknown, comment: Omit<QueuedComment, 'kind' | 'createdAt' | 'error'>): Promise<boolean> {
  if (!isUnreachable(error)) return false;
  const { enqueueComment } = await import('./queue');
  return enqueueComment(comment);
}

/** Removes a queued entry (a comment the server refused, which the person discards). */
export async function discardQueued(key: string): Promise<void> {
  const queue = await import('./queue');
  await queue.discardQueued(key);
}
