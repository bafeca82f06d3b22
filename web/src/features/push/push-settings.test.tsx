// Settings → Notifications on this device: turning push on and off (the browser's Notification,
// service worker and PushManager faked), the device list, and the preferences form.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentToasts } from '@/lib/toast';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { PushInboxControl } from './components/push-inbox-control';
import { PushSettings } from './components/push-settings';
import { DISABLE_LABEL, ENABLE_LABEL, STATUS_TEXT } from './components/this-device-control';
import type { PushDevice, PushPreferences } from './push-api';
import { keyBytes, SUBSCRIBE_TIMEOUT_MS } from './push-browser';
import { DEVICE_TEXT } from './use-push-devices';

const PUBLIC_KEY = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';
const ENDPOINT = 'https://push.example/send/abc';
const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

const thisDevice: PushDevice = { id: 'd1', label: 'Chrome on Linux', endpoint: ENDPOINT, createdAt: '2026-03-01T10:00:00Z', lastDeliveryAt: null };
const phone: PushDevice = { id: 'd2', label: 'Phone', endpoint: 'https://push.example/send/phone', createdAt: '2026-02-01T10:00:00Z', lastDeliveryAt: '2026-03-02T08:00:00Z' };

const preferences: PushPreferences = {
  replies: true,
  likes: true,
  newPosts: true,
  admin: true,
  money: true,
  banners: false,
  quietHours: { enabled: false, start: '22:00', end: '07:00', timeZone: 'UTC' },
};

function fakeSubscription(endpoint = ENDPOINT) {
  return {
    endpoint,
    expirationTime: null,
    options: { applicationServerKey: keyBytes(PUBLIC_KEY).buffer, userVisibleOnly: true },
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'p256dh-key', auth: 'auth-secret' } }),
    unsubscribe: vi.fn(() => Promise.resolve(true)),
  };
}
type FakeSubscription = ReturnType<typeof fakeSubscription>;

interface BrowserOptions {
  permission?: NotificationPermission;
  /** What the permission prompt answers. */
  answer?: NotificationPermission;
  /** This device's subscription before the page opens. */
  existing?: FakeSubscription | null;
  /** What `pushManager.subscribe` does. */
  subscribe?: () => Promise<FakeSubscription>;
}

/** A browser that can get push notifications, with the parts the feature uses faked. */
function fakeBrowser({ permission = 'default', answer = 'granted', existing = null, subscribe }: BrowserOptions = {}) {
  let current = existing;
  const state = { permission };
  const requestPermission = vi.fn(() => {
    state.permission = answer;
    return Promise.resolve(answer);
  });
  const pushManager = {
    getSubscription: vi.fn(() => Promise.resolve(current)),
    subscribe: vi.fn(async () => {
      current = await (subscribe ?? (() => Promise.resolve(fakeSubscription())))();
      return current;
    }),
  };
  const registration = { pushManager };
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal('Notification', {
    get permission() {
      return state.permission;
    },
    requestPermission,
  });
  vi.stubGlobal(
    'navigator',
    Object.create(navigator, {
      userAgent: { value: CHROME_LINUX },
      serviceWorker: { value: { getRegistration: vi.fn(() => Promise.resolve(registration)), ready: Promise.resolve(registration) } },
    }) as Navigator,
  );
  return { requestPermission, pushManager, current: () => current };
}

function mockServer({ devices = [] as PushDevice[], prefs = preferences } = {}) {
  mockApi.on('GET', '/push/subscriptions', { body: { subscriptions: devices } });
  mockApi.on('GET', '/push/preferences', { body: { preferences: prefs } });
  mockApi.on('GET', '/push/vapid-public-key', { body: { publicKey: PUBLIC_KEY } });
}

function renderSettings() {
  return renderWithProviders(<PushSettings />, { preloadedState: { auth: signedInAuth() } });
}

describe('turning notifications on for this device', () => {
  it('never asks the browser on load; asks when the button is pressed, subscribes with the server key and registers the device with its label', async () => {
    const browser = fakeBrowser();
    mockServer();
    mockApi.on('POST', '/push/subscriptions', ({ body }) => ({ status: 201, body: { ...thisDevice, label: (body as { label: string }).label } }));
    const user = userEvent.setup();
    renderSettings();

    const button = await screen.findByRole('button', { name: ENABLE_LABEL });
    expect(screen.getByText(STATUS_TEXT.off)).toHaveAttribute('role', 'status');
    expect(browser.requestPermission).not.toHaveBeenCalled();
    const label = screen.getByLabelText('Name of this device');
    expect(label).toHaveValue('Chrome on Linux');
    await user.clear(label);
    await user.type(label, 'Work laptop');

    await user.click(button);
    expect(await screen.findByText(DEVICE_TEXT.enabled)).toHaveAttribute('role', 'status');
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(browser.pushManager.subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: keyBytes(PUBLIC_KEY) });
    expect(mockApi.calls('POST', '/push/subscriptions')[0].body).toEqual({
      endpoint: ENDPOINT,
      expirationTime: null,
      keys: { p256dh: 'p256dh-key', auth: 'auth-secret' },
      label: 'Work laptop',
    });
    // The device is listed as this one, and the focus is on what turns it off.
    const list = screen.getByRole('list', { name: 'Devices that get your notifications' });
    expect(within(list).getByRole('listitem')).toHaveTextContent(/Work laptop\s*This device/);
    expect(screen.getByRole('button', { name: DISABLE_LABEL })).toHaveFocus();
  });

  it('says when the browser has no push service: the subscription is refused', async () => {
    fakeBrowser({ subscribe: () => Promise.reject(new DOMException('Registration failed - push service not available', 'AbortError')) });
    mockServer();
    const user = userEvent.setup();
    renderSettings();
    await user.click(await screen.findByRole('button', { name: ENABLE_LABEL }));
    expect(await screen.findByText(STATUS_TEXT['no-service'])).toHaveAttribute('role', 'status');
    expect(mockApi.calls('POST', '/push/subscriptions')).toHaveLength(0);
    // It can be tried again.
    expect(screen.getByRole('button', { name: ENABLE_LABEL })).toBeEnabled();
  });

  it('says when the browser has no push service: the subscription never comes (after the time-out)', async () => {
    fakeBrowser({ subscribe: () => new Promise<FakeSubscription>(() => {}) });
    mockServer();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
      renderSettings();
      await user.click(await screen.findByRole('button', { name: ENABLE_LABEL }));
      expect(await screen.findByText('Connecting to your browser’s push service...')).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(SUBSCRIBE_TIMEOUT_MS));
      expect(await screen.findByText(STATUS_TEXT['no-service'])).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('says notifications are blocked when the browser refuses, or was set to refuse before', async () => {
    fakeBrowser({ answer: 'denied' });
    mockServer();
    const user = userEvent.setup();
    const first = renderSettings();
    await user.click(await screen.findByRole('button', { name: ENABLE_LABEL }));
    expect(await screen.findByText(STATUS_TEXT.denied)).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('button', { name: ENABLE_LABEL })).not.toBeInTheDocument();
    first.unmount();

    const browser = fakeBrowser({ permission: 'denied' });
    renderSettings();
    expect(await screen.findByText(STATUS_TEXT.denied)).toBeInTheDocument();
    expect(screen.getByText(/Allow notifications in this site’s settings/)).toBeInTheDocument();
    expect(browser.requestPermission).not.toHaveBeenCalled();
  });

  it('says the prompt was dismissed, and stays off', async () => {
    const browser = fakeBrowser({ answer: 'default' });
    mockServer();
    const user = userEvent.setup();
    renderSettings();
    await user.click(await screen.findByRole('button', { name: ENABLE_LABEL }));
    expect(await screen.findByText(DEVICE_TEXT.dismissed)).toBeInTheDocument();
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal and drops the browser’s subscription', async () => {
    const browser = fakeBrowser();
    mockServer();
    mockApi.on('POST', '/push/subscriptions', { status: 400, body: { message: 'You can register at most 20 devices. Remove one in Settings first.' } });
    const user = userEvent.setup();
    renderSettings();
    await user.click(await screen.findByRole('button', { name: ENABLE_LABEL }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You can register at most 20 devices. Remove one in Settings first.');
    expect(browser.current()?.unsubscribe).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: ENABLE_LABEL })).toBeInTheDocument();
  });

  it('says so in a browser without push notifications, and the inbox shows nothing', async () => {
    mockServer();
    renderSettings();
    expect(await screen.findByText(STATUS_TEXT.unsupported)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: ENABLE_LABEL })).not.toBeInTheDocument();
    renderWithProviders(<PushInboxControl />);
    expect(screen.queryByRole('complementary', { name: 'Notifications on this device' })).not.toBeInTheDocument();
  });
});

describe('turning notifications off for this device', () => {
  it('shows the device as on when its subscription is listed, then removes it on the server and in the browser', async () => {
    const existing = fakeSubscription();
    fakeBrowser({ permission: 'granted', existing });
    mockServer({ devices: [thisDevice, phone] });
    mockApi.on('DELETE', '/push/subscriptions/d1', { body: { message: 'Device removed' } });
    const user = userEvent.setup();
    renderSettings();
    expect(await screen.findByText(STATUS_TEXT.on)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: DISABLE_LABEL }));
    expect(await screen.findByText(DEVICE_TEXT.disabled)).toBeInTheDocument();
    expect(mockApi.calls('DELETE', '/push/subscriptions/d1')).toHaveLength(1);
    expect(existing.unsubscribe).toHaveBeenCalled();
    const list = screen.getByRole('list', { name: 'Devices that get your notifications' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(list).toHaveTextContent('Phone');
    expect(screen.getByRole('button', { name: ENABLE_LABEL })).toHaveFocus();
  });

  it('counts a subscription the server no longer has as off', async () => {
    fakeBrowser({ permission: 'granted', existing: fakeSubscription() });
    mockServer({ devices: [phone] });
    renderSettings();
    expect(await screen.findByText(STATUS_TEXT.off)).toBeInTheDocument();
    expect(screen.queryByText('This device')).not.toBeInTheDocument();
  });

  it('the inbox says it is on, with a link to the settings', async () => {
    fakeBrowser({ permission: 'granted', existing: fakeSubscription() });
    mockServer({ devices: [thisDevice] });
    renderWithProviders(<PushInboxControl />, { preloadedState: { auth: signedInAuth() } });
    const region = await screen.findByRole('complementary', { name: 'Notifications on this device' });
    expect(await within(region).findByText(STATUS_TEXT.on)).toBeInTheDocument();
    expect(within(region).getByRole('link', { name: 'Notification settings' })).toHaveAttribute('href', '/user-setting#notifications');
  });
});

describe('the devices that get notifications', () => {
  it('lists each device with when it was added and last notified, this one marked', async () => {
    fakeBrowser({ permission: 'granted', existing: fakeSubscription() });
    mockServer({ devices: [thisDevice, phone] });
    renderSettings();
    const list = await screen.findByRole('list', { name: 'Devices that get your notifications' });
    const [mine, other] = within(list).getAllByRole('listitem');
    await waitFor(() => expect(mine).toHaveTextContent('This device'));
    expect(mine).toHaveTextContent(/Added .+ · nothing sent yet/);
    expect(other).not.toHaveTextContent('This device');
    expect(other).toHaveTextContent(/Added .+ · last notified /);
  });

  it('says while it loads, when there are none, and when the list could not be read (then reads it again)', async () => {
    mockApi.on('GET', '/push/preferences', { body: { preferences } });
    mockApi.on('GET', '/push/subscriptions', { status: 500, body: { message: 'The database is not answering.' } }, { once: true });
    const user = userEvent.setup();
    renderSettings();
    expect(screen.getByText('Loading your devices...')).toHaveAttribute('role', 'status');
    expect(await screen.findByText(/The database is not answering\./)).toHaveAttribute('role', 'alert');
    mockApi.on('GET', '/push/subscriptions', { body: { subscriptions: [] } });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No device gets your notifications yet.')).toBeInTheDocument();
  });

  it('removes a device after the app’s confirmation dialog', async () => {
    mockServer({ devices: [thisDevice, phone] });
    mockApi.on('DELETE', '/push/subscriptions/d2', { body: { message: 'Device removed' } });
    const user = userEvent.setup();
    renderSettings();
    await user.click(await screen.findByRole('button', { name: 'Remove Phone' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove this device?' });
    expect(dialog).toHaveTextContent('“Phone” will no longer get your notifications.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(mockApi.calls('DELETE', '/push/subscriptions/d2')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Remove Phone' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove device' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(mockApi.calls('DELETE', '/push/subscriptions/d2')).toHaveLength(1);
    expect(screen.queryByText('Phone')).not.toBeInTheDocument();
    expect(currentToasts().map((t) => t.message)).toContain('“Phone” no longer gets notifications.');
  });

  it('keeps the dialog open with the server’s message when the removal fails', async () => {
    mockServer({ devices: [phone] });
    mockApi.on('DELETE', '/push/subscriptions/d2', { status: 500, body: { message: 'Try again later.' } });
    const user = userEvent.setup();
    renderSettings();
    await user.click(await screen.findByRole('button', { name: 'Remove Phone' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove device' }));
    expect(await within(screen.getByRole('dialog')).findByRole('alert')).toHaveTextContent('Try again later.');
    expect(screen.getAllByText('Phone').length).toBeGreaterThan(0);
  });
});

describe('which notifications to send', () => {
  it('shows the saved choices, and quiet hours in the browser’s time zone when they are off', async () => {
    mockServer();
    renderSettings();
    const form = await screen.findByRole('form', { name: 'Which notifications to send' });
    expect(within(form).getByLabelText('Comments on my posts and replies to my comments')).toBeChecked();
    expect(within(form).getByLabelText('Likes on my posts (at most one notification per post an hour)')).toBeChecked();
    expect(within(form).getByLabelText('New posts from authors I follow with instant alerts')).toBeChecked();
    expect(within(form).getByLabelText('Notices and replies from administrators')).toBeChecked();
    expect(within(form).getByLabelText('Subscriptions, payouts and tips')).toBeChecked();
    expect(within(form).getByLabelText('Urgent announcements')).not.toBeChecked();
    expect(within(form).getByLabelText('Send no push notifications during quiet hours')).not.toBeChecked();
    expect(within(form).getByLabelText('From')).toBeDisabled();
    expect(within(form).getByLabelText('Time zone')).toHaveValue(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('saves every choice and the quiet hours, and says so', async () => {
    mockServer();
    mockApi.on('PUT', '/push/preferences', ({ body }) => ({ body: { preferences: body } }));
    const user = userEvent.setup();
    renderSettings();
    const form = await screen.findByRole('form', { name: 'Which notifications to send' });
    await user.click(within(form).getByLabelText('Likes on my posts (at most one notification per post an hour)'));
    await user.click(within(form).getByLabelText('Urgent announcements'));
    await user.click(within(form).getByLabelText('Send no push notifications during quiet hours'));
    await user.clear(within(form).getByLabelText('From'));
    await user.type(within(form).getByLabelText('From'), '23:30');
    await user.selectOptions(within(form).getByLabelText('Time zone'), 'Europe/Paris');
    await user.click(within(form).getByRole('button', { name: 'Save notification settings' }));
    expect(await screen.findByText('Notification settings saved.')).toHaveAttribute('role', 'status');
    expect(mockApi.calls('PUT', '/push/preferences')[0].body).toEqual({
      ...preferences,
      likes: false,
      banners: true,
      quietHours: { enabled: true, start: '23:30', end: '07:00', timeZone: 'Europe/Paris' },
    });
  });

  it('keeps what was chosen when the server refuses, with its message', async () => {
    mockServer({ prefs: { ...preferences, quietHours: { enabled: true, start: '22:00', end: '07:00', timeZone: 'Europe/Paris' } } });
    mockApi.on('PUT', '/push/preferences', { status: 400, body: { message: 'Unknown time zone: Europe/Nowhere' } });
    const user = userEvent.setup();
    renderSettings();
    const form = await screen.findByRole('form', { name: 'Which notifications to send' });
    expect(within(form).getByLabelText('Time zone')).toHaveValue('Europe/Paris');
    await user.click(within(form).getByLabelText('Comments on my posts and replies to my comments'));
    await user.clear(within(form).getByLabelText('Until'));
    await user.type(within(form).getByLabelText('Until'), '06:15');
    await user.click(within(form).getByRole('button', { name: 'Save notification settings' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Unknown time zone: Europe/Nowhere');
    expect(within(form).getByLabelText('Comments on my posts and replies to my comments')).not.toBeChecked();
    expect(within(form).getByLabelText('Until')).toHaveValue('06:15');
  });

  it('says when the settings could not be read, and reads them again', async () => {
    mockApi.on('GET', '/push/subscriptions', { body: { subscriptions: [] } });
    mockApi.on('GET', '/push/preferences', { status: 503, body: {} }, { once: true });
    const user = userEvent.setup();
    renderSettings();
    expect(await screen.findByText(/Could not load your notification settings/)).toHaveAttribute('role', 'alert');
    mockApi.on('GET', '/push/preferences', { body: { preferences } });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('form', { name: 'Which notifications to send' })).toBeInTheDocument();
  });
});
