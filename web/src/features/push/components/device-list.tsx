import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-field';
import { formatDate, relativeTime } from '@/lib/format';
import { errorMessage, errorStatus } from '@/lib/http';
import { toast } from '@/lib/toast';
import { PUSH_FALLBACK, pushApi, type PushDevice } from '../push-api';
import type { DeviceList as DeviceListState } from '../use-push-devices';

/** The line under a device's name: when it was added, when it last got a notification. */
export function deviceDetails(device: PushDevice): string {
  return [`Added ${formatDate(device.createdAt)}`, device.lastDeliveryAt ? `last notified ${relativeTime(device.lastDeliveryAt)}` : 'nothing sent yet'].join(' · ');
}

function RemoveDialog({ device, onClose }: { device: PushDevice; onClose: (removed: boolean) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const go = async () => {
    setBusy(true);
    setError(null);
    try {
      await pushApi.removeDevice(device.id).catch((e: unknown) => {
        // Already gone: removed from another device.
        if (errorStatus(e) !== 404) throw e;
      });
      toast.success(`“${device.label}” no longer gets notifications.`);
      onClose(true);
    } catch (e) {
      setError(errorMessage(e, PUSH_FALLBACK.remove));
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog title="Remove this device?" confirmLabel="Remove device" danger busy={busy} onConfirm={() => void go()} onCancel={() => onClose(false)}>
      <p>“{device.label}” will no longer get your notifications. You can turn them on again from that device.</p>
      <FormError message={error} />
    </ConfirmDialog>
  );
}

/** The person's devices that get notifications, this one marked; each can be removed (confirmed). */
export function DeviceList({ list, thisEndpoint, onRemoved }: { list: DeviceListState; thisEndpoint: string | null; onRemoved: (device: PushDevice) => void }) {
  const [removing, setRemoving] = useState<PushDevice | null>(null);
  const [removedCount, setRemovedCount] = useState(0);
  const wrapRef = useRef<HTMLDivElement>(null);
  const { devices, error } = list;

  // The removed device's button is gone: the focus goes to the list (or what says it is empty).
  useEffect(() => {
    if (removedCount > 0) wrapRef.current?.focus();
  }, [removedCount]);

  let body;
  if (error && !devices) {
    body = (
      <p className="form-error" role="alert">
        {error}{' '}
        <button type="button" className="link-button" onClick={() => void list.reload()}>
          Try again
        </button>
      </p>
    );
  } else if (!devices) {
    body = (
      <p className="muted small" role="status">
        Loading your devices...
      </p>
    );
  } else if (devices.length === 0) {
    body = <p className="muted small">No device gets your notifications yet.</p>;
  } else {
    body = (
      <ul className="session-list push-devices" aria-label="Devices that get your notifications">
        {devices.map((device) => {
          const mine = thisEndpoint !== null && device.endpoint === thisEndpoint;
          return (
            <li key={device.id} className="session-item push-devices__item" data-device-id={device.id}>
              <div className="push-devices__body">
                <strong>{device.label}</strong>
                {mine ? <span className="session-current">This device</span> : null}
                <p className="muted small">{deviceDetails(device)}</p>
              </div>
              <button type="button" className="button button--ghost button--small" aria-label={`Remove ${device.label}`} onClick={() => setRemoving(device)}>
                Remove
              </button>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <div ref={wrapRef} tabIndex={-1} className="passkey-list-wrap">
      {body}
      {removing ? (
        <RemoveDialog
          device={removing}
          onClose={(done) => {
            const device = removing;
            setRemoving(null);
            if (done) {
              list.removed(device.id);
              onRemoved(device);
              setRemovedCount((n) => n + 1);
            }
          }}
        />
      ) : null}
    </div>
  );
}
