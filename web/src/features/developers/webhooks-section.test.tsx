// Settings → Developers → Webhooks: the endpoints, adding one (secret shown once), an
// administrator's site-wide one (the only kind that may hear member.deleted), a disabled one
// turned back on, a test event followed in the delivery log until it settles, resend, rotating
// the secret and removing an endpoint.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentToasts } from '@/lib/toast';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth, testAdmin } from '@/test/render';
import { deliveryStatusLabel } from './delivery-log';
import { WebhooksSection } from './webhooks-section';

const eventTypes = [
  { name: 'post.published', about: 'One of your posts was published', adminOnly: false },
  { name: 'comment.created', about: 'Someone commented on your post', adminOnly: false },
];
// What the server lists for an administrator: the administrators' event besides.
const adminEventTypes = [...eventTypes, { name: 'member.deleted', about: 'A member deleted their account', adminOnly: true }];
const hook = {
  id: 'w1',
  url: 'https://example.com/hook',
  events: ['post.published'],
  description: 'My blog mirror',
  site: false,
  disabled: false,
  disabledReason: null,
  createdAt: '2026-01-01T10:00:00Z',
};
const off = { ...hook, id: 'w2', url: 'https://gone.example.com/hook', description: '', disabled: true, disabledReason: 'The endpoint answered 410 Gone.' };
const delivery = (over: Record<string, unknown> = {}) => ({
  id: 'd1',
  webhookId: 'w1',
  messageId: 'msg_1',
  eventType: 'webhook.test',
  attempt: 1,
  status: 'succeeded',
  responseStatus: 200,
  at: '2026-01-02T10:00:00Z',
  durationMs: 12,
  response: 'ok',
  payload: '{}',
  ...over,
});

beforeEach(() => {
  mockApi.on('GET', '/webhooks/event-types', { body: { eventTypes } });
});

function renderSection() {
  return renderWithProviders(<WebhooksSection />, { preloadedState: { auth: signedInAuth() } });
}

function renderAsAdmin() {
  mockApi.on('GET', '/webhooks/event-types', { body: { eventTypes: adminEventTypes } });
  return renderWithProviders(<WebhooksSection />, { preloadedState: { auth: signedInAuth({ user: testAdmin }) } });
}

const SITE_WIDE = 'Site-wide: every writer’s events (administrators)';

describe('webhooks in settings', () => {
  it('lists each endpoint with its events and description; a disabled one says why and turns back on', async () => {
    mockApi.on('GET', '/webhooks', { body: { webhooks: [hook, off] } });
    mockApi.on('PATCH', '/webhooks/w2', { body: { ...off, disabled: false, disabledReason: null } });
    const user = userEvent.setup();
    renderSection();
    const list = await screen.findByRole('list', { name: 'Your webhook endpoints' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('https://example.com/hook');
    expect(first).toHaveTextContent('My blog mirror');
    expect(first).toHaveTextContent('Events: post.published');
    expect(first).not.toHaveTextContent('Disabled');
    expect(second).toHaveTextContent('Disabled');
    expect(second).toHaveTextContent('The endpoint answered 410 Gone.');
    expect(within(second).getByRole('button', { name: 'Send test event' })).toBeDisabled();

    await user.click(within(second).getByRole('button', { name: 'Turn back on https://gone.example.com/hook' }));
    await vi.waitFor(() => expect(second).not.toHaveTextContent('Disabled'));
    expect(mockApi.calls('PATCH', '/webhooks/w2')[0].body).toEqual({ disabled: false });
    expect(currentToasts().map((t) => t.message)).toContain('Endpoint turned back on.');
  });

  it('says when there are none yet, and when the list could not be read', async () => {
    mockApi.on('GET', '/webhooks', { status: 500 }, { once: true });
    const user = userEvent.setup();
    renderSection();
    expect(screen.getByText('Loading your webhook endpoints...')).toHaveAttribute('role', 'status');
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load your webhook endpoints');
    mockApi.on('GET', '/webhooks', { body: { webhooks: [] } });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No endpoints yet.')).toBeInTheDocument();
  });

  it('adds an endpoint and shows its signing secret once; the server’s refusal is shown as it says it', async () => {
    mockApi.on('GET', '/webhooks', { body: { webhooks: [] } });
    mockApi.on('POST', '/webhooks', { status: 201, body: { ...hook, secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0' } });
    mockApi.on('POST', '/webhooks', { status: 400, body: { message: 'The URL must use https.' } }, { once: true });
    const user = userEvent.setup();
    renderSection();
    await screen.findByText('No endpoints yet.');
    const events = screen.getByRole('group', { name: 'Events' });
    await user.click(await within(events).findByRole('checkbox', { name: /post\.published One of your posts was published/ }));
    await user.type(screen.getByLabelText('Endpoint URL'), 'https://example.com/hook');
    await user.type(screen.getByLabelText('Description (optional)'), 'My blog mirror');
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The URL must use https.');

    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const shown = await screen.findByRole('textbox', { name: 'Your endpoint’s signing secret' });
    expect(shown).toHaveValue('whsec_c2VjcmV0c2VjcmV0c2VjcmV0');
    expect(shown).toHaveAccessibleDescription(/Copy it now: you will not see it again\./);
    expect(mockApi.calls('POST', '/webhooks')[1].body).toEqual({ url: 'https://example.com/hook', events: ['post.published'], description: 'My blog mirror' });
    expect(within(screen.getByRole('list', { name: 'Your webhook endpoints' })).getByText('https://example.com/hook', { selector: 'strong' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByRole('textbox', { name: 'Your endpoint’s signing secret' })).not.toBeInTheDocument();
  });

  it('offers a writer no site-wide box and no member.deleted', async () => {
    mockApi.on('GET', '/webhooks', { body: { webhooks: [] } });
    // Even were the administrators' event listed, a writer's form would not offer it.
    mockApi.on('GET', '/webhooks/event-types', { body: { eventTypes: adminEventTypes } });
    renderSection();
    const events = screen.getByRole('group', { name: 'Events' });
    expect(await within(events).findByRole('checkbox', { name: /post\.published/ })).toBeInTheDocument();
    expect(within(events).queryByRole('checkbox', { name: /member\.deleted/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: SITE_WIDE })).not.toBeInTheDocument();
  });

  it('lets an administrator add a site-wide endpoint, which alone offers member.deleted; a refusal keeps what was chosen', async () => {
    mockApi.on('GET', '/webhooks', { body: { webhooks: [] } });
    mockApi.on('POST', '/webhooks', { status: 201, body: { ...hook, events: ['post.published', 'member.deleted'], site: true, secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0' } });
    mockApi.on('POST', '/webhooks', { status: 400, body: { message: 'The host "example.com" could not be found.' } }, { once: true });
    const user = userEvent.setup();
    renderAsAdmin();
    await screen.findByText('No endpoints yet.');
    const events = screen.getByRole('group', { name: 'Events' });
    await user.click(await within(events).findByRole('checkbox', { name: /post\.published/ }));
    expect(within(events).queryByRole('checkbox', { name: /member\.deleted/ })).not.toBeInTheDocument();

    const site = screen.getByRole('checkbox', { name: SITE_WIDE });
    expect(site).not.toBeChecked();
    expect(site).toHaveAccessibleDescription(/every writer on the site, and can also hear member\.deleted/);
    await user.click(site);
    await user.click(within(events).getByRole('checkbox', { name: /member\.deleted A member deleted their account/ }));
    await user.type(screen.getByLabelText('Endpoint URL'), 'https://example.com/hook');
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The host "example.com" could not be found.');
    expect(site).toBeChecked();
    expect(within(events).getByRole('checkbox', { name: /member\.deleted/ })).toBeChecked();
    expect(within(events).getByRole('checkbox', { name: /post\.published/ })).toBeChecked();
    expect(screen.getByLabelText('Endpoint URL')).toHaveValue('https://example.com/hook');

    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByRole('textbox', { name: 'Your endpoint’s signing secret' })).toBeInTheDocument();
    const [refused, sent] = mockApi.calls('POST', '/webhooks');
    expect(refused.body).toEqual(sent.body);
    expect(sent.body).toEqual({ url: 'https://example.com/hook', events: ['post.published', 'member.deleted'], description: null, site: true });
    const item = within(screen.getByRole('list', { name: 'Your webhook endpoints' })).getByRole('listitem');
    expect(within(item).getByText('Site-wide')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: SITE_WIDE })).not.toBeChecked();
    expect(within(events).queryByRole('checkbox', { name: /member\.deleted/ })).not.toBeInTheDocument();
  });

  it('drops member.deleted when the site-wide box is unticked, and sends no site then', async () => {
    mockApi.on('GET', '/webhooks', { body: { webhooks: [] } });
    mockApi.on('POST', '/webhooks', { status: 201, body: { ...hook, secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0' } });
    const user = userEvent.setup();
    renderAsAdmin();
    const events = screen.getByRole('group', { name: 'Events' });
    await user.click(await within(events).findByRole('checkbox', { name: /post\.published/ }));
    const site = screen.getByRole('checkbox', { name: SITE_WIDE });
    await user.click(site);
    await user.click(within(events).getByRole('checkbox', { name: /member\.deleted/ }));
    await user.click(site);
    expect(within(events).queryByRole('checkbox', { name: /member\.deleted/ })).not.toBeInTheDocument();
    await user.click(site);
    expect(within(events).getByRole('checkbox', { name: /member\.deleted/ })).not.toBeChecked();
    expect(within(events).getByRole('checkbox', { name: /post\.published/ })).toBeChecked();
    await user.click(site);

    await user.type(screen.getByLabelText('Endpoint URL'), 'https://example.com/hook');
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    await screen.findByRole('textbox', { name: 'Your endpoint’s signing secret' });
    expect(mockApi.calls('POST', '/webhooks')[0].body).toEqual({ url: 'https://example.com/hook', events: ['post.published'], description: null });
    expect(mockApi.calls('POST', '/webhooks')[0].body).not.toHaveProperty('site');
  });

  it('marks a site-wide endpoint in the list', async () => {
    mockApi.on('GET', '/webhooks', { body: { webhooks: [{ ...hook, id: 'w3', url: 'https://ops.example.com/hook', site: true }, hook] } });
    renderAsAdmin();
    const list = await screen.findByRole('list', { name: 'Your webhook endpoints' });
    const [siteWide, own] = within(list).getAllByRole('listitem');
    expect(within(siteWide).getByText('Site-wide')).toHaveClass('badge-inline');
    expect(within(own).queryByText('Site-wide')).not.toBeInTheDocument();
  });

  it('asks for an event before sending', async () => {
    mockApi.on('GET', '/webhooks', { body: { webhooks: [] } });
    const user = userEvent.setup();
    renderSection();
    await user.type(await screen.findByLabelText('Endpoint URL'), 'https://example.com/hook');
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose at least one event.');
    expect(mockApi.calls('POST', '/webhooks')).toHaveLength(0);
  });

  it('sends a test event and follows it in the delivery log until it succeeded; resends one', async () => {
    mockApi.on('GET', '/webhooks', { body: { webhooks: [hook] } });
    mockApi.on('POST', '/webhooks/w1/test', { status: 202, body: { message: 'Test event queued.', deliveryId: 'd1' } });
    mockApi.on('GET', '/webhooks/w1/deliveries', { body: { deliveries: [delivery()] } });
    mockApi.on('GET', '/webhooks/w1/deliveries', { body: { deliveries: [delivery({ status: 'pending', responseStatus: null, response: null, attempt: 0 })] } }, { once: true });
    mockApi.on('POST', '/webhooks/deliveries/d1/resend', { status: 202, body: { message: 'Delivery queued again.', deliveryId: 'd2' } });
    const user = userEvent.setup();
    renderSection();
    const item = within(await screen.findByRole('list', { name: 'Your webhook endpoints' })).getByRole('listitem');
    const disclosure = within(item).getByRole('button', { name: 'Delivery log' });
    expect(disclosure).toHaveAttribute('aria-expanded', 'false');

    await user.click(within(item).getByRole('button', { name: 'Send test event' }));
    expect(disclosure).toHaveAttribute('aria-expanded', 'true');
    const log = await within(item).findByRole('list', { name: 'Deliveries' });
    expect(await within(log).findByText('Pending')).toBeInTheDocument();
    expect(await within(log).findByText('Succeeded', {}, { timeout: 3000 })).toBeInTheDocument();
    const row = within(log).getByRole('listitem');
    expect(row).toHaveTextContent('webhook.test');
    expect(row).toHaveTextContent('HTTP 200');
    expect(row).toHaveTextContent('1 attempt');
    expect(within(row).getByLabelText('Response')).toHaveTextContent('ok');
    expect(currentToasts().map((t) => t.message)).toContain('Test event queued.');
    const reads = mockApi.calls('GET', '/webhooks/w1/deliveries').length;
    expect(reads).toBeGreaterThanOrEqual(2);

    await user.click(within(row).getByRole('button', { name: /^Resend webhook\.test of / }));
    expect(mockApi.calls('POST', '/webhooks/deliveries/d1/resend')).toHaveLength(1);
    const refresh = await within(item).findByRole('button', { name: 'Refresh' });
    await vi.waitFor(() => expect(refresh).toBeEnabled());
    await user.click(refresh);
    expect(mockApi.calls('GET', '/webhooks/w1/deliveries').length).toBeGreaterThan(reads);

    await user.click(disclosure);
    expect(disclosure).toHaveAttribute('aria-expanded', 'false');
    expect(within(item).queryByRole('list', { name: 'Deliveries' })).not.toBeInTheDocument();
  }, 10_000);

  it('rotates the secret after asking and shows the new one once', async () => {
    mockApi.on('GET', '/webhooks', { body: { webhooks: [hook] } });
    mockApi.on('POST', '/webhooks/w1/rotate-secret', { body: { secret: 'whsec_bmV3c2VjcmV0bmV3c2VjcmV0' } });
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Rotate secret' }));
    const confirm = screen.getByRole('dialog', { name: 'Rotate the signing secret?' });
    expect(confirm).toHaveTextContent('24 hours');
    await user.click(within(confirm).getByRole('button', { name: 'Rotate secret' }));
    expect(await screen.findByRole('textbox', { name: 'New signing secret' })).toHaveValue('whsec_bmV3c2VjcmV0bmV3c2VjcmV0');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('removes an endpoint after asking, and keeps it when the server refuses', async () => {
    mockApi.on('GET', '/webhooks', { body: { webhooks: [hook] } });
    mockApi.on('DELETE', '/webhooks/w1', { body: { message: 'Endpoint removed' } });
    mockApi.on('DELETE', '/webhooks/w1', { status: 500, body: { message: 'Try again later.' } }, { once: true });
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Remove https://example.com/hook' }));
    const confirm = screen.getByRole('dialog', { name: 'Remove this endpoint?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove endpoint' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent('Try again later.');
    await user.click(within(confirm).getByRole('button', { name: 'Remove endpoint' }));
    expect(await screen.findByText('No endpoints yet.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(currentToasts().map((t) => t.message)).toContain('Endpoint removed.');
  });

  it('says delivery statuses in words', () => {
    expect(deliveryStatusLabel('failed')).toBe('Failed');
    expect(deliveryStatusLabel('something')).toBe('something');
  });
});
