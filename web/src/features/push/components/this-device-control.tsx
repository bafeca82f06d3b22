import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { FormError } from '@/components/form-field';
import { DEVICE_LABEL_MAX } from '@/lib/device-label';
import type { DeviceStatus, DeviceStep, ThisDevice } from '../use-push-devices';

export const STATUS_TEXT: Record<DeviceStatus, string> = {
  checking: 'Checking this device...',
  unsupported: 'This browser does not support push notifications. On an iPhone or iPad, add Pressroom to your Home Screen first.',
  denied: 'Notifications are blocked for this site in your browser settings.',
  'no-service': 'This browser has no push service available, so notifications cannot reach this device.',
  on: 'Notifications are on for this device.',
  off: 'Get your notifications on this device, even when Pressroom is closed.',
};

export const STEP_TEXT: Record<DeviceStep, string> = {
  permission: 'Answer your browser’s question to allow notifications.',
  subscribing: 'Connecting to your browser’s push service...',
  saving: 'Saving this device...',
  removing: 'Turning notifications off on this device...',
};

export const ENABLE_LABEL = 'Enable notifications on this device';
export const DISABLE_LABEL = 'Turn off on this device';

/** The line that says where this device stands (a live region: every change is read out). */
export function deviceStatusText(device: Pick<ThisDevice, 'status' | 'step' | 'notice'>): string {
  if (device.step) return STEP_TEXT[device.step];
  if (device.status === 'off' && device.notice) return device.notice;
  return STATUS_TEXT[device.status];
}

/**
 * Turning notifications on or off for this device. The browser is asked for its permission only
 * when "Enable notifications on this device" is pressed. `compact`: the inbox's one line (no
 * label field; a link to the settings).
 */
export function ThisDeviceControl({ device, compact = false }: { device: ThisDevice; compact?: boolean }) {
  const busy = device.step !== null;
  const canEnable = device.status === 'off' || device.status === 'no-service';
  const enableRef = useRef<HTMLButtonElement>(null);
  const disableRef = useRef<HTMLButtonElement>(null);
  // After turning on (or off), the focus goes to the button that undoes it, which took the place
  // of the one pressed.
  const acted = useRef(false);
  useEffect(() => {
    if (!acted.current || busy) return;
    acted.current = false;
    if (device.status === 'on') disableRef.current?.focus();
    else if (canEnable) enableRef.current?.focus();
  }, [device.status, busy, canEnable]);

  const act = (action: () => Promise<void>) => {
    acted.current = true;
    void action();
  };

  return (
    <div className={`push-device ${compact ? 'push-device--compact' : ''}`} aria-busy={busy}>
      <p className={`push-device__status push-device__status--${device.status}`} role="status">
        {deviceStatusText(device)}
      </p>
      {device.status === 'denied' && !compact ? (
        <p className="muted small">Allow notifications in this site’s settings (the icon beside the address), then come back to this page.</p>
      ) : null}
      <FormError message={device.error} />
      {canEnable && !compact ? (
        <div className="field push-device__label">
          <label htmlFor="push-device-label">Name of this device</label>
          <input
            id="push-device-label"
            maxLength={DEVICE_LABEL_MAX}
            autoComplete="off"
            value={device.label}
            aria-describedby="push-device-label-hint"
            onChange={(e) => device.setLabel(e.target.value)}
          />
          <small id="push-device-label-hint" className="muted">
            How this device shows in your list of devices.
          </small>
        </div>
      ) : null}
      <div className="form-actions form-actions--start push-device__actions">
        {canEnable ? (
          <button ref={enableRef} type="button" className="button button--small" disabled={busy} onClick={() => act(device.enable)}>
            {ENABLE_LABEL}
          </button>
        ) : null}
        {device.status === 'on' ? (
          <button ref={disableRef} type="button" className="button button--small button--ghost" disabled={busy} onClick={() => act(device.disable)}>
            {DISABLE_LABEL}
          </button>
        ) : null}
        {compact ? (
          <Link className="small" to="/user-setting#notifications">
            Notification settings
          </Link>
        ) : null}
      </div>
    </div>
  );
}
