// Editing a webhook endpoint in place: only the changed fields are sent and the list shows the
// saved endpoint; a refusal is shown as the server words it and what was typed stays; Cancel and
// Escape close it unchanged, focus back on Edit; the administrators' events only for an
// administrator's site-wide endpoint.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentToasts } from '@/lib/toast';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth, testAdmin } from '@/test/render';
import { endpointChanges } from './webhook-edit-form';
import { WebhooksSection } from './webhooks-section';

const eventTypes = [
  { name: 'post.published', about: 'One of your posts was published', adminOnly: false },
  { name: 'comment.created', about: 'Someone commented on your post', adminOnly: false },
];
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

beforeEach(() => {
  mockApi.on('GET', '/webhooks/event-types', { body: { eventTypes } });
  mockApi.on('GET', '/webhooks', { body: { webhooks: [hook] } });
});

function renderSection(auth = signedInAuth()) {
  return renderWithProviders(<WebhooksSection />, { preloadedState: { auth } });
}

/** Opens the edit form of the endpoint at `url` and answers it. */
async function openEdit(user: ReturnType<typeof userEvent.setup>, url = hook.url) {
  await user.click(await screen.findByRole('button', { name: `Edit ${url}` }));
  const form = screen.getByRole('form', { name: `Edit the endpoint ${url}` });
  await within(form).findByRole('checkbox', { name: /post\.published/ });
  return form;
}

describe('editing a webhook endpoint', () => {
  it('opens filled in, sends only what changed, and the list shows the saved endpoint', async () => {
    mockApi.on('PATCH', '/webhooks/w1', { body: { ...hook, url: 'https://new.example.com/hook', events: ['post.published', 'comment.created'] } });
    const user = userEvent.setup();
    renderSection();
    const form = await openEdit(user);
    const url = within(form).getByLabelText('Endpoint URL');
    expect(url).toHaveValue('https://example.com/hook');
    expect(url).toHaveFocus();
    expect(within(form).getByLabelText('Description (optional)')).toHaveValue('My blog mirror');
    const events = within(form).getByRole('group', { name: 'Events' });
    expect(within(events).getByRole('checkbox', { name: /post\.published/ })).toBeChecked();
    expect(within(events).getByRole('checkbox', { name: /comment\.created/ })).not.toBeChecked();

    await user.clear(url);
    await user.type(url, ' https://new.example.com/hook ');
    await user.click(within(events).getByRole('checkbox', { name: /comment\.created/ }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    const list = screen.getByRole('list', { name: 'Your webhook endpoints' });
    expect(await within(list).findByText('https://new.example.com/hook', { selector: 'strong' })).toBeInTheDocument();
    expect(within(list).getByText('comment.created')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: /Edit the endpoint/ })).not.toBeInTheDocument();
    expect(mockApi.calls('PATCH', '/webhooks/w1')).toHaveLength(1);
    expect(mockApi.calls('PATCH', '/webhooks/w1')[0].body).toEqual({ url: 'https://new.example.com/hook', events: ['post.published', 'comment.created'] });
    expect(screen.getByRole('button', { name: 'Edit https://new.example.com/hook' })).toHaveFocus();
    expect(currentToasts().map((t) => t.message)).toContain('Endpoint updated.');
  });

  it('shows the server’s refusal and keeps what was typed', async () => {
    mockApi.on('PATCH', '/webhooks/w1', { status: 400, body: { message: 'Webhook URLs must use https.' } });
    const user = userEvent.setup();
    renderSection();
    const form = await openEdit(user);
    const url = within(form).getByLabelText('Endpoint URL');
    const description = within(form).getByLabelText('Description (optional)');
    await user.clear(url);
    await user.type(url, 'http://example.com/hook');
    await user.clear(description);
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    expect(await within(form).findByRole('alert')).toHaveTextContent('Webhook URLs must use https.');
    // An emptied description is sent as "" (clear it), not left out.
    expect(mockApi.calls('PATCH', '/webhooks/w1')[0].body).toEqual({ url: 'http://example.com/hook', description: '' });
    expect(url).toHaveValue('http://example.com/hook');
    expect(description).toHaveValue('');
    expect(within(form).getByRole('checkbox', { name: /post\.published/ })).toBeChecked();
    expect(within(screen.getByRole('list', { name: 'Your webhook endpoints' })).queryByText('http://example.com/hook')).not.toBeInTheDocument();
  });

  it('Cancel and Escape close it unchanged, focus back on Edit; it opens again with what the endpoint has', async () => {
    const user = userEvent.setup();
    renderSection();
    let form = await openEdit(user);
    await user.type(within(form).getByLabelText('Endpoint URL'), '/changed');
    await user.click(within(form).getByRole('checkbox', { name: /post\.published/ }));
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: /Edit the endpoint/ })).not.toBeInTheDocument();
    const edit = screen.getByRole('button', { name: 'Edit https://example.com/hook' });
    expect(edit).toHaveFocus();
    expect(screen.getByRole('list', { name: 'Your webhook endpoints' })).toHaveTextContent('Events: post.published');

    form = await openEdit(user);
    expect(within(form).getByLabelText('Endpoint URL')).toHaveValue('https://example.com/hook');
    expect(within(form).getByRole('checkbox', { name: /post\.published/ })).toBeChecked();
    await user.clear(within(form).getByLabelText('Description (optional)'));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('form', { name: /Edit the endpoint/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit https://example.com/hook' })).toHaveFocus();
    expect(screen.getByText('My blog mirror')).toBeInTheDocument();
    expect(mockApi.calls('PATCH', '/webhooks/w1')).toHaveLength(0);
  });

  it('asks for an event, and saves nothing when nothing changed', async () => {
    const user = userEvent.setup();
    renderSection();
    let form = await openEdit(user);
    await user.click(within(form).getByRole('checkbox', { name: /post\.published/ }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Choose at least one event.');
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));

    form = await openEdit(user);
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('form', { name: /Edit the endpoint/ })).not.toBeInTheDocument();
    expect(mockApi.calls('PATCH', '/webhooks/w1')).toHaveLength(0);
  });

  it('offers member.deleted when editing an administrator’s site-wide endpoint only', async () => {
    const ops = { ...hook, id: 'w3', url: 'https://ops.example.com/hook', site: true, events: ['member.deleted'] };
    mockApi.on('GET', '/webhooks', { body: { webhooks: [ops, hook] } });
    mockApi.on('GET', '/webhooks/event-types', { body: { eventTypes: adminEventTypes } });
    mockApi.on('PATCH', '/webhooks/w3', { body: { ...ops, events: ['member.deleted', 'post.published'] } });
    const user = userEvent.setup();
    renderSection(signedInAuth({ user: testAdmin }));
    let form = await openEdit(user);
    expect(within(form).queryByRole('checkbox', { name: /member\.deleted/ })).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));

    form = await openEdit(user, ops.url);
    expect(within(form).getByRole('checkbox', { name: /member\.deleted A member deleted their account/ })).toBeChecked();
    await user.click(within(form).getByRole('checkbox', { name: /post\.published/ }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(screen.queryByRole('form', { name: /Edit the endpoint/ })).not.toBeInTheDocument());
    expect(mockApi.calls('PATCH', '/webhooks/w3')[0].body).toEqual({ events: ['member.deleted', 'post.published'] });
  });

  it('shows an event the endpoint has but is no longer offered, so it can be unticked', async () => {
    mockApi.on('GET', '/webhooks', { body: { webhooks: [{ ...hook, site: true, events: ['post.published', 'member.deleted'] }] } });
    const user = userEvent.setup();
    renderSection();
    const form = await openEdit(user);
    const kept = within(form).getByRole('checkbox', { name: /member\.deleted.*no longer offered to this endpoint/ });
    expect(kept).toBeChecked();
    await user.click(kept);
    expect(kept).not.toBeChecked();
  });

  it('finds the changed fields, events in any order being the same', () => {
    expect(endpointChanges(hook, ' https://example.com/hook ', ['post.published'], 'My blog mirror ')).toEqual({});
    expect(endpointChanges({ ...hook, events: ['a', 'b'] }, hook.url, ['b', 'a'], hook.description)).toEqual({});
    expect(endpointChanges(hook, hook.url, ['comment.created'], '')).toEqual({ events: ['comment.created'], description: '' });
  });
});
