/**
 * Sends what was queued while the server could not be reached (the page queues it:
 * features/offline/queue.ts), each exactly once, oldest first:
 *
 * - a like or a bookmark is the state the person wants: the server's state is read first
 *   (`GET /api/post/bookmark-status/{postId}`) and the toggle is sent only when it differs, so
 *   sending again after an interruption never flips it back;
 * - a comment goes with the `Idempotency-Key` it was given when queued: sent twice (an answer
 *   lost on the way), the server keeps one.
 *
 * Only the owner's entries are sent, with the session cookie. When the server cannot be reached
 * (or answers 5xx, 401, 408, 429) sending stops and the rest waits for the next try; a comment the
 * server refuses stays, marked with the server's message (its text is never lost); a toggle of a
 * post that is gone is dropped. One sender at a time (a Web Lock where there is one, and one
 * promise in this worker), so two tries never read the same state and toggle twice.
 */
import { deleteQueued, listQueue, putQueued, type QueuedComment, type QueuedToggle, type QueueEntry } from '@/lib/offline-db';
import { API_INIT, currentOwner, statusPath, type WorkerDeps } from './reading-list';

type Outcome = { kind: 'sent' } | { kind: 'refused'; message: string } | { kind: 'later' };

export interface SendResult {
  sent: QueueEntry[];
  refused: QueueEntry[];
  /** Entries still waiting (the server could not be reached). */
  waiting: number;
}

/** Answers that mean "not now" rather than "no". */
function retryable(status: number): boolean {
  return status >= 500 || status === 401 || status === 408 || status === 429;
}

async function messageOf(response: Response, fallback: string): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    return typeof body?.message === 'string' && body.message ? body.message : fallback;
  } catch {
    return fallback;
  }
}

async function sendToggle(entry: QueuedToggle, deps: WorkerDeps): Promise<Outcome> {
  const status = await deps.fetch(statusPath(entry.postId), API_INIT);
  if (retryable(status.status)) return { kind: 'later' };
  if (!status.ok) return { kind: 'refused', message: await messageOf(status, 'The post is no longer available.') };
  const now = (await status.json()) as { liked?: boolean; bookmarked?: boolean };
  const current = Boolean(entry.kind === 'like' ? now.liked : now.bookmarked);
  if (current === entry.want) return { kind: 'sent' };
  const path = `/api/post/${entry.kind}/${encodeURIComponent(entry.postId)}`;
  const toggled = await deps.fetch(path, { ...API_INIT, method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body: '{}' });
  if (retryable(toggled.status)) return { kind: 'later' };
  if (!toggled.ok) return { kind: 'refused', message: await messageOf(toggled, 'The post is no longer available.') };
  return { kind: 'sent' };
}

async function sendComment(entry: QueuedComment, deps: WorkerDeps): Promise<Outcome> {
  const response = await deps.fetch(`/api/comment/add-comment/${encodeURIComponent(entry.postId)}`, {
    ...API_INIT,
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'Idempotency-Key': entry.key },
    body: JSON.stringify({ content: entry.content, parentId: entry.parentId }),
  });
  if (retryable(response.status)) return { kind: 'later' };
  if (!response.ok) return { kind: 'refused', message: await messageOf(response, 'Failed to add comment') };
  return { kind: 'sent' };
}

async function sendOne(entry: QueueEntry, deps: WorkerDeps): Promise<Outcome> {
  try {
    return entry.kind === 'comment' ? await sendComment(entry, deps) : await sendToggle(entry, deps);
  } catch {
    return { kind: 'later' };
  }
}

async function sendAll(deps: WorkerDeps): Promise<SendResult> {
  const owner = await currentOwner();
  const result: SendResult = { sent: [], refused: [], waiting: 0 };
  const entries = (await listQueue()).filter((e) => owner !== null && e.userId === owner && !(e.kind === 'comment' && e.error));
  for (const [index, entry] of entries.entries()) {
    const outcome = await sendOne(entry, deps);
    if (outcome.kind === 'later') {
      result.waiting = entries.length - index;
      break;
    }
    if (outcome.kind === 'refused' && entry.kind === 'comment') {
      await putQueued({ ...entry, error: outcome.message });
      result.refused.push(entry);
      continue;
    }
    await deleteQueued(entry.key);
    (outcome.kind === 'sent' ? result.sent : result.refused).push(entry);
  }
  return result;
}

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

let running: Promise<SendResult> | null = null;
let again = false;

/**
 * Sends the queue (see above). A call while a send runs makes it run once more after, and
 * resolves with that run's result.
 */
export async function sendQueue(deps: WorkerDeps, locks: LockManagerLike | undefined = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks): Promise<SendResult> {
  if (running) {
    again = true;
    return running;
  }
  const run = async (): Promise<SendResult> => {
    let result: SendResult;
    do {
      again = false;
      result = await (locks ? locks.request('pressroom-offline-queue', () => sendAll(deps)) : sendAll(deps));
    } while (again && result.waiting === 0);
    return result;
  };
  running = run().finally(() => {
    running = null;
  });
  return running;
}
