import { useState } from 'react';
import { pushSupported } from '../push-browser';
import { useDeviceList, useThisDevice } from '../use-push-devices';
import { ThisDeviceControl } from './this-device-control';

function Control() {
  const list = useDeviceList();
  const device = useThisDevice(list);
  return (
    <aside className="push-inbox" aria-label="Notifications on this device">
      <ThisDeviceControl device={device} compact />
    </aside>
  );
}

/** The inbox's one line about push notifications on this device (nothing where the browser has none). */
export function PushInboxControl() {
  const [supported] = useState(pushSupported);
  return supported ? <Control /> : null;
}
