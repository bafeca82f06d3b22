/**
 * One webhook endpoint in Settings → Developers: its URL, events and description, a Disabled badge
 * with the reason and "Turn back on", "Edit" (in place, webhook-edit-form.tsx; focus back on Edit
 * when it closes), "Send test event", "Rotate secret" (confirmed; the new secret shown once),
 * "Remove" (confirmed), and its delivery log behind a disclosure button.
 */
import { useEffect, useRef, useState } from 'react';
import {
  api,
  useDeleteWebhooksByIdMutation,
  usePatchWebhooksByIdMutation,
  usePostWebhooksByIdRotateSecretMutation,
  usePostWebhooksByIdTestMutation,
  type EndpointView,
} from '@/api/endpoints';
import { useAppDispatch } from '@/app/hooks';
import { FormError } from '@/components/form-field';
import { Modal } from '@/components/modal';
import { formatDate } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { DeliveryLog } from './delivery-log';
import { ShownOnce } from './shown-once';
import { WebhookEditForm } from './webhook-edit-form';

function ConfirmDialog({
  title,
  id,
  text,
  action,
  busyLabel,
  danger,
  onConfirm,
  onClose,
}: {
  title: string;
  id: string;
  text: string;
  action: string;
  busyLabel: string;
  danger?: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const go = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (e) {
      setError(errorMessage(e, 'Something went wrong'));
      setBusy(false);
    }
  };
  return (
    <Modal title={title} labelledBy={id} onClose={onClose}>
      <p>{text}</p>
      <FormError message={error} />
      <div className="form-actions">
        <button type="button" className="button button--ghost" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={danger ? 'button button--danger' : 'button'} disabled={busy} onClick={() => void go()}>
          {busy ? busyLabel : action}
        </button>
      </div>
    </Modal>
  );
}

export function WebhookItem({ endpoint, onRemoved }: { endpoint: EndpointView; onRemoved: () => void }) {
  const dispatch = useAppDispatch();
  const [patch, { isLoading: enabling }] = usePatchWebhooksByIdMutation();
  const [remove] = useDeleteWebhooksByIdMutation();
  const [rotate] = usePostWebhooksByIdRotateSecretMutation();
  const [sendTest, { isLoading: testing }] = usePostWebhooksByIdTestMutation();
  const [confirming, setConfirming] = useState<null | 'rotate' | 'remove'>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [logOpen, setLogOpen] = useState(false);
  const [watchId, setWatchId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  const logId = `webhook-log-${endpoint.id}`;

  // Back on "Edit" once the form closes (saved or cancelled), not when the item first renders.
  useEffect(() => {
    if (!editing && returnFocus.current) {
      returnFocus.current = false;
      editButton.current?.focus();
    }
  }, [editing]);

  const closeEdit = () => {
    returnFocus.current = true;
    setEditing(false);
  };

  const replace = (saved: EndpointView) =>
    dispatch(api.util.updateQueryData('getWebhooks', undefined, (draft) => void (draft.webhooks = draft.webhooks.map((w) => (w.id === saved.id ? saved : w)))));

  const turnOn = async () => {
    setError(null);
    try {
      replace(await patch({ id: endpoint.id, body: { disabled: false } }).unwrap());
      toast.success('Endpoint turned back on.');
    } catch (e) {
      setError(errorMessage(e, 'Could not turn the endpoint back on'));
    }
  };

  const test = async () => {
    setError(null);
    try {
      const answer = await sendTest({ id: endpoint.id }).unwrap();
      toast.success(answer.message || 'Test event sent.');
      setWatchId(answer.deliveryId);
      setLogOpen(true);
    } catch (e) {
      setError(errorMessage(e, 'Could not send the test event'));
    }
  };

  const doRotate = async () => {
    const answer = await rotate({ id: endpoint.id }).unwrap();
    setConfirming(null);
    setSecret(answer.secret);
  };

  const doRemove = async () => {
    await remove({ id: endpoint.id }).unwrap();
    dispatch(api.util.updateQueryData('getWebhooks', undefined, (draft) => void (draft.webhooks = draft.webhooks.filter((w) => w.id !== endpoint.id))));
    toast.success('Endpoint removed.');
    onRemoved();
  };

  return (
    <li className="dev-endpoint" data-webhook-id={endpoint.id}>
      {editing ? (
        <WebhookEditForm
          endpoint={endpoint}
          onCancel={closeEdit}
          onSaved={(saved) => {
            replace(saved);
            closeEdit();
          }}
        />
      ) : (
        <div className="dev-endpoint__head">
          <div className="dev-item__body">
            <strong className="dev-endpoint__url">{endpoint.url}</strong>
            {endpoint.site ? <span className="badge-inline dev-badge">Site-wide</span> : null}
            {endpoint.disabled ? <span className="badge-inline badge-inline--danger dev-badge">Disabled</span> : null}
            {endpoint.description ? <p className="small dev-endpoint__about">{endpoint.description}</p> : null}
            <p className="small dev-item__scopes">
              <span className="visually-hidden">Events: </span>
              {endpoint.events.map((e) => (
                <code key={e} className="dev-chip">
                  {e}
                </code>
              ))}
            </p>
            <p className="muted small">added {formatDate(endpoint.createdAt)}</p>
          </div>
        </div>
      )}
      {endpoint.disabled ? (
        <div className="dev-endpoint__disabled" role="note">
          <p className="small">
            <strong>Not sending events.</strong> {endpoint.disabledReason ?? 'This endpoint was turned off.'}
          </p>
          <button type="button" className="button button--small" disabled={enabling} onClick={() => void turnOn()}>
            Turn back on<span className="visually-hidden"> {endpoint.url}</span>
          </button>
        </div>
      ) : null}
      {secret ? <ShownOnce id={`webhook-secret-${endpoint.id}`} label="New signing secret" value={secret} onDone={() => setSecret(null)} /> : null}
      <FormError message={error} />
      {editing ? null : (
        <div className="dev-endpoint__actions">
          <button
            ref={editButton}
            type="button"
            className="button button--ghost button--small"
            onClick={() => {
              setError(null);
              setEditing(true);
            }}
          >
            Edit<span className="visually-hidden"> {endpoint.url}</span>
          </button>
          <button type="button" className="button button--small" disabled={testing || endpoint.disabled} onClick={() => void test()}>
            {testing ? 'Sending...' : 'Send test event'}
          </button>
          <button type="button" className="button button--ghost button--small" onClick={() => setConfirming('rotate')}>
            Rotate secret
          </button>
          <button type="button" className="button button--ghost button--small" onClick={() => setConfirming('remove')}>
            Remove<span className="visually-hidden"> {endpoint.url}</span>
          </button>
          <button type="button" className="button button--ghost button--small" aria-expanded={logOpen} aria-controls={logId} onClick={() => setLogOpen((o) => !o)}>
            Delivery log
          </button>
        </div>
      )}
      <div id={logId} hidden={!logOpen}>
        {logOpen ? <DeliveryLog webhookId={endpoint.id} watchId={watchId} /> : null}
      </div>
      {confirming === 'rotate' ? (
        <ConfirmDialog
          id="rotate-secret-title"
          title="Rotate the signing secret?"
          text="A new secret signs every event from now on. The old one keeps signing them too for 24 hours, so you have time to update your receiver."
          action="Rotate secret"
          busyLabel="Rotating..."
          onConfirm={doRotate}
          onClose={() => setConfirming(null)}
        />
      ) : null}
      {confirming === 'remove' ? (
        <ConfirmDialog
          id="remove-webhook-title"
          title="Remove this endpoint?"
          text={`${endpoint.url} will receive no more events, and its delivery log is deleted.`}
          action="Remove endpoint"
          busyLabel="Removing..."
          danger
          onConfirm={doRemove}
          onClose={() => setConfirming(null)}
        />
      ) : null}
    </li>
  );
}
