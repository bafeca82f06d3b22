import { useDeviceList, useThisDevice } from '../use-push-devices';
import { DeviceList } from './device-list';
import { PushPreferencesForm } from './push-preferences-form';
import { ThisDeviceControl } from './this-device-control';

/**
 * Settings → Notifications on this device: turning push notifications on or off here, the
 * devices that get them (this one marked, each removable), and which notifications they get and
 * when not (quiet hours).
 */
export function PushSettings() {
  const list = useDeviceList();
  const device = useThisDevice(list);
  return (
    <>
      <ThisDeviceControl device={device} />
      <section aria-labelledby="push-devices-title">
        <h3 id="push-devices-title" className="settings-subtitle">
          Your devices
        </h3>
        <DeviceList list={list} thisEndpoint={device.endpoint} onRemoved={(removed) => void device.forget(removed)} />
      </section>
      <section aria-labelledby="push-kinds-title">
        <h3 id="push-kinds-title" className="settings-subtitle">
          What to send
        </h3>
        <PushPreferencesForm />
      </section>
    </>
  );
}
