import '../offline.css';

const LATER = 'will be sent when you are back online';
/** What a like, bookmark or comment made offline says until it is sent. */
export const PENDING_TEXT = `Pending — ${LATER}`;

/**
 * The pending mark: `what` names what waits ("Like", "Like and bookmark"); `id` lets the control
 * it is about point at it (`aria-describedby`). `error`: the server refused it, with its message.
 */
export function PendingNote({ id, what, error }: { id?: string; what?: string; error?: string }) {
  return (
    <span id={id} className={`pending-note ${error ? 'pending-note--error' : ''}`} data-testid="pending-note">
      {error ? `Not sent: ${error}` : what ? `${what} pending — ${LATER}` : PENDING_TEXT}
    </span>
  );
}
