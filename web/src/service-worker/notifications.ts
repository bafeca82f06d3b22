/**
 * What the service worker does with a push and with a click on its notification, as plain
 * functions over the few parts of the worker's scope they use (`WorkerScope`), so that they run
 * in unit tests as in the worker (src/service-worker/sw.ts wires them to the events).
 *
 * A push carries `{title, body, url, tag, badge}` (JSON text; the server's contract): `url` is a
 * path inside the site, `tag` groups notifications (a newer one with the same tag replaces the
 * older, silently), `badge` is the person's unread count, shown on the installed app's icon.
 */

/** The icon shown with every notification (the manifest's). */
export const NOTIFICATION_ICON = '/icons/icon-192.png';
/** What a push without a readable payload shows. */
export const GENERIC_NOTIFICATION = { title: 'Pressroom', body: 'You have new activity on Pressroom.', url: '/message-box' } as const;

export interface PushPayload {
  title: string;
  body: string;
  /** A path inside the site. */
  url: string;
  tag?: string;
  /** The unread notifications count. */
  badge?: number;
}

/** The data of a push event (`PushMessageData`), or null when it came without any. */
export interface PushDataLike {
  text(): string;
}

export interface NotificationLike {
  readonly data: unknown;
  close(): void;
}

export interface WindowClientLike {
  readonly url: string;
  focus(): Promise<unknown>;
  navigate?(url: string): Promise<unknown>;
}

/** The parts of `ServiceWorkerGlobalScope` these functions use. */
export interface WorkerScope {
  readonly location: { readonly origin: string };
  readonly registration: { showNotification(title: string, options?: NotificationOptions & { renotify?: boolean }): Promise<void> };
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
  readonly navigator: { setAppBadge?: (count?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
}

function textField(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The push's payload; a push without JSON (or without a title) reads as the generic notification. */
export function readPush(data: PushDataLike | null | undefined): PushPayload {
  let parsed: unknown = null;
  try {
    parsed = data ? JSON.parse(data.text()) : null;
  } catch {
    parsed = null;
  }
  if (!parsed || typeof parsed !== 'object') return { ...GENERIC_NOTIFICATION };
  const fields = parsed as Record<string, unknown>;
  const title = textField(fields.title);
  if (!title) return { ...GENERIC_NOTIFICATION };
  const badge = typeof fields.badge === 'number' && Number.isFinite(fields.badge) && fields.badge >= 0 ? Math.floor(fields.badge) : undefined;
  return {
    title,
    body: textField(fields.body) ?? '',
    url: textField(fields.url) ?? '/',
    tag: textField(fields.tag),
    badge,
  };
}

/**
 * The address a notification opens: `url` resolved against the site, kept only when it stays on
 * the site (a payload never sends anyone elsewhere); otherwise the site's home.
 */
export function targetUrl(url: unknown, origin: string): string {
  try {
    const target = new URL(typeof url === 'string' && url !== '' ? url : '/', origin);
    if (target.origin === origin && (target.protocol === 'https:' || target.protocol === 'http:')) return target.href;
  } catch {
    /* not an address */
  }
  return new URL('/', origin).href;
}

/** The title and options `showNotification` gets for a payload. */
export function notificationFor(payload: PushPayload): { title: string; options: NotificationOptions & { renotify: boolean } } {
  return {
    title: payload.title,
    options: {
      body: payload.body,
      ...(payload.tag ? { tag: payload.tag } : {}),
      data: { url: payload.url },
      icon: NOTIFICATION_ICON,
      badge: NOTIFICATION_ICON,
      renotify: false,
    },
  };
}

/** The installed app's icon shows the unread count (cleared at 0), where the browser can. */
export async function updateAppBadge(scope: WorkerScope, badge: number | undefined): Promise<void> {
  if (badge === undefined) return;
  try {
    if (badge > 0) await scope.navigator.setAppBadge?.(badge);
    else await scope.navigator.clearAppBadge?.();
  } catch {
    /* the badge is a nicety: never the reason a notification is not shown */
  }
}

/** The `push` event: shows the notification and sets the badge. */
export async function handlePush(scope: WorkerScope, data: PushDataLike | null | undefined): Promise<void> {
  const payload = readPush(data);
  const { title, options } = notificationFor(payload);
  await Promise.all([scope.registration.showNotification(title, options), updateAppBadge(scope, payload.badge)]);
}

/**
 * The `notificationclick` event: closes the notification and shows its page — in a window of the
 * site already at that address (focused), else in another window of the site (focused, then sent
 * there), else in a new window.
 */
export async function handleNotificationClick(scope: WorkerScope, notification: NotificationLike): Promise<void> {
  notification.close();
  const data = notification.data as { url?: unknown } | null | undefined;
  const target = targetUrl(data?.url, scope.location.origin);
  const windows = (await scope.clients.matchAll({ type: 'window', includeUncontrolled: true })).filter((client) => {
    try {
      return new URL(client.url).origin === scope.location.origin;
    } catch {
      return false;
    }
  });
  // Focusing needs the click's user activation; without it (a browser that refuses) the page is
  // still shown, just not brought to the front.
  const focus = (client: WindowClientLike) => client.focus().catch(() => undefined);
  const there = windows.find((client) => client.url === target);
  if (there) {
    await focus(there);
    return;
  }
  const other = windows[0];
  if (other) {
    await focus(other);
    // Only a window this worker controls can be sent elsewhere; else a new one opens there.
    const moved = other.navigate ? await other.navigate(target).then((client) => client !== null, () => false) : false;
    if (moved) return;
  }
  await scope.clients.openWindow(target);
}
