/**
 * One webhook endpoint's delivery log: each delivery's event type, outcome, HTTP status, attempts,
 * time and the start of the answer (or why it was not sent), newest first, with Resend, and the
 * body that was sent behind a "Request body" disclosure (JSON pretty-printed); Refresh reads it
 * again. After "Send test event" it reads it again every second until that delivery is
 * settled (at most `POLL_TRIES` times).
 */
import { useEffect, useState } from 'react';
import { useGetWebhooksByIdDeliveriesQuery, usePostWebhooksDeliveriesByIdResendMutation, type DeliveryView } from '@/api/endpoints';
import { formatDateTime } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';

export const POLL_MS = 1000;
export const POLL_TRIES = 15;

const STATUS: Record<string, string> = { pending: 'Pending', succeeded: 'Succeeded', failed: 'Failed' };

/**
 * `text` pretty-printed when it is a JSON object or array, else as it is (an answer may be cut
 * short, or not JSON; a lone number is kept as sent rather than rounded).
 */
export function prettyJson(text: string): string {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? JSON.stringify(value, null, 2) : text;
  } catch {
    return text;
  }
}

/** A delivery's status in words ("succeeded" → "Succeeded"). */
export function deliveryStatusLabel(status: string): string {
  return STATUS[status] ?? status;
}

function DeliveryRow({ delivery, onResend, resending }: { delivery: DeliveryView; onResend: (d: DeliveryView) => void; resending: boolean }) {
  const attempts = delivery.attempt === 1 ? '1 attempt' : `${delivery.attempt} attempts`;
  return (
    <li className={`dev-delivery dev-delivery--${delivery.status}`} data-delivery-id={delivery.id}>
      <div className="dev-delivery__head">
        <span className={`badge-inline dev-badge dev-status dev-status--${delivery.status}`}>{deliveryStatusLabel(delivery.status)}</span>
        <code className="dev-code">{delivery.eventType}</code>
        <span className="small">{delivery.responseStatus != null ? `HTTP ${delivery.responseStatus}` : 'No answer'}</span>
        <span className="muted small">{attempts}</span>
        {delivery.durationMs != null ? <span className="muted small">{delivery.durationMs} ms</span> : null}
        <time className="muted small" dateTime={delivery.at}>
          {formatDateTime(delivery.at)}
        </time>
        <button
          type="button"
          className="button button--ghost button--small dev-delivery__resend"
          disabled={resending}
          aria-label={`Resend ${delivery.eventType} of ${formatDateTime(delivery.at)}`}
          onClick={() => onResend(delivery)}
        >
          Resend
        </button>
      </div>
      {delivery.response ? (
        <pre className="dev-delivery__response" aria-label="Response">
          {prettyJson(delivery.response)}
        </pre>
      ) : null}
      {delivery.payload ? (
        <details className="dev-delivery__body">
          <summary>Request body</summary>
          <pre className="dev-delivery__response">{prettyJson(delivery.payload)}</pre>
        </details>
      ) : null}
    </li>
  );
}

export function DeliveryLog({ webhookId, watchId }: { webhookId: string; watchId: string | null }) {
  const [tries, setTries] = useState(0);
  const [watching, setWatching] = useState(watchId);
  const { data, error, refetch, isFetching } = useGetWebhooksByIdDeliveriesQuery({ id: webhookId });
  const [resend, { isLoading: resending }] = usePostWebhooksDeliveriesByIdResendMutation();
  const deliveries = data?.deliveries;

  // A new delivery to watch (a test event or a resend): start again.
  useEffect(() => {
    setWatching(watchId);
    setTries(0);
  }, [watchId]);

  // Reads the log again until the watched delivery is there and settled.
  useEffect(() => {
    if (!watching || isFetching) return;
    const found = deliveries?.find((d) => d.id === watching);
    if ((found && found.status !== 'pending') || tries >= POLL_TRIES) {
      setWatching(null);
      return;
    }
    const timer = setTimeout(() => {
      setTries((n) => n + 1);
      void refetch();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [watching, deliveries, tries, isFetching, refetch]);

  const resendOne = async (d: DeliveryView) => {
    try {
      const answer = await resend({ id: d.id }).unwrap();
      toast.success(answer.message || 'Delivery sent again.');
      setWatching(answer.deliveryId || null);
      setTries(0);
      void refetch();
    } catch (e) {
      toast.error(errorMessage(e, 'Could not resend the delivery'));
    }
  };

  let body;
  if (error && !deliveries) {
    body = (
      <p className="form-error" role="alert">
        {errorMessage(error, 'Could not load the delivery log')}
      </p>
    );
  } else if (!deliveries) {
    body = (
      <p className="muted small" role="status">
        Loading the delivery log...
      </p>
    );
  } else if (deliveries.length === 0) {
    body = <p className="muted small">Nothing sent yet. Use “Send test event” to try the endpoint.</p>;
  } else {
    body = (
      <ul className="dev-deliveries" aria-label="Deliveries">
        {deliveries.map((d) => (
          <DeliveryRow key={d.id} delivery={d} resending={resending} onResend={(x) => void resendOne(x)} />
        ))}
      </ul>
    );
  }

  return (
    <div className="dev-log">
      <div className="dev-log__bar">
        <p className="muted small" role="status">
          {watching ? 'Waiting for the delivery...' : deliveries && deliveries.length > 0 ? 'Newest first.' : ''}
        </p>
        <button type="button" className="button button--ghost button--small" disabled={isFetching} onClick={() => void refetch()}>
          Refresh
        </button>
      </div>
      {body}
    </div>
  );
}
