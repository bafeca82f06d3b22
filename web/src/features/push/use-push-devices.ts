import { useCallback, useEffect, useRef, useState } from 'react';
import { deviceLabel, DEVICE_LABEL_MAX } from '@/lib/device-label';
import { errorMessage, errorStatus } from '@/lib/http';
import { PUSH_FALLBACK, pushApi, type PushDevice } from './push-api';
import {
  askPermission,
  currentSubscription,
  NoPushServiceError,
  notificationPermission,
  PushBlockedError,
  pushSupported,
  subscribe,
  subscriptionBody,
  watchPermission,
} from './push-browser';

/** The person's devices that get notifications (GET /api/push/subscriptions), newest first. */
export interface DeviceList {
  devices: PushDevice[] | null;
  error: string | null;
  reload: () => Promise<void>;
  /** A device the server registered (added first, or put in place of the same id). */
  added: (device: PushDevice) => void;
  removed: (id: string) => void;
}

export function useDeviceList(): DeviceList {
  const [devices, setDevices] = useState<PushDevice[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const live = useRef(true);

  const reload = useCallback(async () => {
    setError(null);
    try {
      const answer = await pushApi.devices();
      if (live.current) setDevices(answer.subscriptions);
    } catch (e) {
      if (live.current) setError(errorMessage(e, PUSH_FALLBACK.devices));
    }
  }, []);

  useEffect(() => {
    live.current = true;
    void reload();
    return () => {
      live.current = false;
    };
  }, [reload]);

  const added = useCallback((device: PushDevice) => setDevices((list) => [device, ...(list ?? []).filter((d) => d.id !== device.id)]), []);
  const removed = useCallback((id: string) => setDevices((list) => (list ?? []).filter((d) => d.id !== id)), []);
  return { devices, error, reload, added, removed };
}

/**
 * Where this device stands:
 * - `checking`: reading the browser's subscription (and the list of devices);
 * - `unsupported`: the browser cannot get push notifications;
 * - `denied`: notifications are blocked for the site in the browser's settings;
 * - `no-service`: the browser has no push service (subscribing failed or never answered);
 * - `on`: this device's subscription is among the person's devices;
 * - `off`: anything else (it can be turned on).
 */
export type DeviceStatus = 'checking' | 'unsupported' | 'denied' | 'no-service' | 'on' | 'off';
/** What is under way: the browser's permission prompt, subscribing, saving, turning off. */
export type DeviceStep = 'permission' | 'subscribing' | 'saving' | 'removing';

export interface ThisDevice {
  status: DeviceStatus;
  step: DeviceStep | null;
  /** This device's subscription endpoint, when it has one. */
  endpoint: string | null;
  /** What to call this device in the list (editable before turning on). */
  label: string;
  setLabel: (label: string) => void;
  /** The last failure, in words. */
  error: string | null;
  /** The last outcome worth saying that no status says ("You did not allow notifications..."). */
  notice: string | null;
  enable: () => Promise<void>;
  disable: () => Promise<void>;
  /** A device was removed from the list: when it was this one, the browser's subscription goes too. */
  forget: (device: PushDevice) => Promise<void>;
}

export const DEVICE_TEXT = {
  dismissed: 'You did not allow notifications. Turn them on whenever you like.',
  enabled: 'Notifications are on for this device.',
  disabled: 'Notifications are off for this device.',
} as const;

export function useThisDevice(list: DeviceList): ThisDevice {
  const [supported] = useState(pushSupported);
  const [permission, setPermission] = useState<NotificationPermission | null>(() => (supported ? notificationPermission() : null));
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [checked, setChecked] = useState(!supported);
  const [step, setStep] = useState<DeviceStep | null>(null);
  const [noService, setNoService] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [label, setLabel] = useState(() => (typeof navigator === 'undefined' ? 'Browser' : deviceLabel(navigator.userAgent)));
  const live = useRef(true);

  useEffect(() => {
    live.current = true;
    if (!supported) return;
    currentSubscription()
      .then((subscription) => live.current && setEndpoint(subscription?.endpoint ?? null))
      .catch(() => undefined)
      .finally(() => live.current && setChecked(true));
    const stop = watchPermission((next) => live.current && setPermission(next));
    return () => {
      live.current = false;
      stop();
    };
  }, [supported]);

  const listed = endpoint ? (list.devices?.find((d) => d.endpoint === endpoint) ?? null) : null;
  let status: DeviceStatus;
  if (!supported) status = 'unsupported';
  else if (permission === 'denied') status = 'denied';
  else if (!checked || (endpoint && list.devices === null && list.error === null)) status = 'checking';
  else if (listed && permission === 'granted') status = 'on';
  else if (noService) status = 'no-service';
  else status = 'off';

  const enable = async () => {
    setError(null);
    setNotice(null);
    setNoService(false);
    setStep('permission');
    try {
      const answer = await askPermission();
      setPermission(answer);
      if (answer !== 'granted') {
        if (answer === 'default') setNotice(DEVICE_TEXT.dismissed);
        return;
      }
      setStep('subscribing');
      const { publicKey } = await pushApi.vapidPublicKey();
      const subscription = await subscribe(publicKey);
      setEndpoint(subscription.endpoint);
      setStep('saving');
      try {
        const saved = await pushApi.addDevice(subscriptionBody(subscription, label.trim().slice(0, DEVICE_LABEL_MAX) || deviceLabel(navigator.userAgent)));
        list.added(saved);
        setNotice(DEVICE_TEXT.enabled);
      } catch (e) {
        // The server refused this device: the browser's subscription would lead nowhere.
        await subscription.unsubscribe().catch(() => false);
        setEndpoint(null);
        throw e;
      }
    } catch (e) {
      if (e instanceof NoPushServiceError) setNoService(true);
      else if (e instanceof PushBlockedError) setPermission('denied');
      else setError(errorMessage(e, PUSH_FALLBACK.add));
    } finally {
      if (live.current) setStep(null);
    }
  };

  const disable = async () => {
    setError(null);
    setNotice(null);
    setStep('removing');
    try {
      if (listed) {
        // Already removed elsewhere (404): the same outcome.
        await pushApi.removeDevice(listed.id).catch((e: unknown) => {
          if (errorStatus(e) !== 404) throw e;
        });
        list.removed(listed.id);
      }
      const subscription = await currentSubscription();
      await subscription?.unsubscribe();
      setEndpoint(null);
      setNotice(DEVICE_TEXT.disabled);
    } catch (e) {
      setError(errorMessage(e, PUSH_FALLBACK.remove));
    } finally {
      if (live.current) setStep(null);
    }
  };

  const forget = async (device: PushDevice) => {
    if (!endpoint || device.endpoint !== endpoint) return;
    const subscription = await currentSubscription().catch(() => null);
    await subscription?.unsubscribe().catch(() => false);
    if (live.current) setEndpoint(null);
  };

  return { status, step, endpoint, label, setLabel, error, notice, enable, disable, forget };
}
