// The offline reading list's page side: the pending marks of what waits in the queue, and the
// session the service worker keeps the list for. The parts the first load may name are in lazy.ts.
export { PENDING_TEXT, PendingNote } from './components/pending-note';
export { OfflineSession } from './offline-session';
export { useQueuedComments, useQueuedToggles } from './pending-store';
export { discardQueued, queueCommentIfUnreachable } from './comment-queue';
export { queueToggle } from './queue-actions';
