/** Queueing from the post's engagement bar, which loads the queue's code (queue.ts) when used. */
import type { ToggleKind } from '@/lib/offline-db';

/** Queues a like or bookmark while one of the same post already waits (the newest wish wins). */
export async function queueToggle(kind: ToggleKind, postId: string, want: boolean, userId: string): Promise<boolean> {
  const { enqueueToggle } = await import('./queue');
  return enqueueToggle({ kind, postId, want, userId });
}
