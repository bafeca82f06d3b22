/**
 * What waits in the offline queue, as the page shows it (likes, bookmarks and comments marked
 * pending), kept outside the store like the update prompt's state: it is this device's, read
 * from IndexedDB by queue.ts (started for a signed-in reader by offline-session.tsx, and by
 * anything queued), so a guest's page never opens the database.
 */
import { useMemo, useSyncExternalStore } from 'react';
import type { QueuedComment, QueueEntry, ToggleKind } from '@/lib/offline-db';

let entries: readonly QueueEntry[] = [];
const listeners = new Set<() => void>();

/** queue.ts: the queue as read now. */
export function queuedChanged(next: readonly QueueEntry[]): void {
  entries = next;
  for (const listener of listeners) listener();
}

/** The queue as last read. */
export function queuedNow(): readonly QueueEntry[] {
  return entries;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const EMPTY: readonly QueueEntry[] = [];

/** Every queued entry (re-renders when the queue changes). */
export function useQueued(): readonly QueueEntry[] {
  return useSyncExternalStore(subscribe, () => entries, () => EMPTY);
}

/** The queued like and bookmark of a post: the state the person wants, undefined when none waits. */
export function useQueuedToggles(postId: string): Partial<Record<ToggleKind, boolean>> {
  const all = useQueued();
  return useMemo(() => {
    const found: Partial<Record<ToggleKind, boolean>> = {};
    for (const e of all) if (e.kind !== 'comment' && e.postId === postId) found[e.kind] = e.want;
    return found;
  }, [all, postId]);
}

/** The queued comments of a post, oldest first. */
export function useQueuedComments(postId: string): QueuedComment[] {
  const all = useQueued();
  return useMemo(() => all.filter((e): e is QueuedComment => e.kind === 'comment' && e.postId === postId), [all, postId]);
}

