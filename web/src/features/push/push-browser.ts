/**
 * The browser's side of Web Push: whether it can, the notification permission, this device's
 * subscription, and subscribing with the server's key. A browser without a push service (a
 * headless one, a de-Googled Chromium) may refuse the subscription or never answer: after
 * SUBSCRIBE_TIMEOUT_MS it counts as having none (`NoPushServiceError`).
 */

/** How long subscribing may take before the browser counts as having no push service. */
export const SUBSCRIBE_TIMEOUT_MS = 10_000;

/** The browser has no push service to deliver to this device (or it did not answer in time). */
export class NoPushServiceError extends Error {
  constructor() {
    super('This browser has no push service available.');
    this.name = 'NoPushServiceError';
  }
}

/** The browser refused the subscription: notifications are blocked for the site. */
export class PushBlockedError extends Error {
  constructor() {
    super('Notifications are blocked for this site in your browser settings.');
    this.name = 'PushBlockedError';
  }
}

/** Whether this browser can get push notifications at all (service workers, Push API, Notification). */
export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

export function notificationPermission(): NotificationPermission {
  return Notification.permission;
}

/** Asks the browser for permission to show notifications (only ever after a press of a button). */
export async function askPermission(): Promise<NotificationPermission> {
  return Notification.requestPermission();
}

/** Calls `onChange` when the permission changes in the browser's settings while the page is open. */
export function watchPermission(onChange: (permission: NotificationPermission) => void): () => void {
  let stop = () => {};
  let stopped = false;
  navigator.permissions
    ?.query({ name: 'notifications' })
    .then((status) => {
      if (stopped) return;
      const changed = () => onChange(Notification.permission);
      status.addEventListener('change', changed);
      stop = () => status.removeEventListener('change', changed);
    })
    .catch(() => undefined);
  return () => {
    stopped = true;
    stop();
  };
}

async function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** This device's push subscription to the site, or null. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** The server's key (base64url, no padding) as the bytes `subscribe` takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function sameBytes(a: ArrayBuffer, b: Uint8Array): boolean {
  const left = new Uint8Array(a);
  return left.length === b.length && left.every((byte, i) => byte === b[i]);
}

/**
 * Subscribes this device with the server's key (the existing subscription when it was made with
 * that key; one made with another key is replaced). Rejects with `NoPushServiceError` when the
 * browser has no push service or does not answer within `timeoutMs`, with `PushBlockedError`
 * when it refuses.
 */
export async function subscribe(publicKey: string, timeoutMs = SUBSCRIBE_TIMEOUT_MS): Promise<PushSubscription> {
  const key = keyBytes(publicKey);
  const work = (async () => {
    const registration = await navigator.serviceWorker.ready;
    const existing = await registration.pushManager.getSubscription();
    if (existing) {
      const used = existing.options?.applicationServerKey;
      if (!used || sameBytes(used, key)) return existing;
      await existing.unsubscribe();
    }
    return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  })();
  try {
    return await withTimeout(work, timeoutMs, () => new NoPushServiceError());
  } catch (error) {
    // A DOMException (not always an Error where the page is not a browser's).
    const name = error && typeof error === 'object' && 'name' in error ? String(error.name) : '';
    if (name === 'NotAllowedError') throw new PushBlockedError();
    // Chromium without a push service: "AbortError: Registration failed - push service not available".
    if (name === 'AbortError' || name === 'NoPushServiceError') throw new NoPushServiceError();
    throw error;
  }
}

/** The subscription as the server registers it (`PushSubscription.toJSON()`), with a label. */
export function subscriptionBody(subscription: PushSubscription, label: string) {
  const json = subscription.toJSON();
  return {
    endpoint: json.endpoint ?? subscription.endpoint,
    expirationTime: json.expirationTime ?? null,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    label,
  };
}
