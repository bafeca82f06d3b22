// Settings → Developers → API keys: the list, creating a key after the step-up (shown once, with
// Copy), refusals, and revoking one after asking.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ReauthDialog } from '@/features/auth';
import { currentToasts } from '@/lib/toast';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { ApiKeysSection, keyDetails } from './api-keys-section';

const scopes = [
  { scope: 'read:posts', allows: 'Read your posts, drafts included', adminOnly: false },
  { scope: 'write:posts', allows: 'Write, edit and delete your posts', adminOnly: false },
];
const script = {
  id: 'k1',
  name: 'Publishing script',
  prefix: 'pr_live_ab12cd34',
  scopes: ['read:posts', 'write:posts'],
  createdAt: '2026-01-01T10:00:00Z',
  expiresAt: '2099-04-01T10:00:00Z',
  lastUsedAt: '2026-02-03T10:00:00Z',
  usageCount: 12,
};
const reader = { ...script, id: 'k2', name: 'Reader', prefix: 'pr_live_ef56gh78', scopes: ['read:posts'], expiresAt: null, lastUsedAt: null, usageCount: 0 };
const secretKey = 'pr_live_ZmFrZWtleWZha2VrZXlmYWtla2V5ZmFrZWtleQ';
const reauthRequired = { status: 403, body: { message: 'Please confirm your password to continue.', code: 'reauth_required' } };

beforeEach(() => {
  mockApi.on('GET', '/keys/scopes', { body: { scopes } });
});

function renderSection() {
  return renderWithProviders(
    <>
      <ApiKeysSection />
      <ReauthDialog />
    </>,
    { preloadedState: { auth: signedInAuth() } },
  );
}

describe('API keys in settings', () => {
  it('lists each key: prefix, scopes, created, expiry or never, last use or never, uses', async () => {
    mockApi.on('GET', '/keys', { body: { keys: [script, reader] } });
    renderSection();
    const list = await screen.findByRole('list', { name: 'Your API keys' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('Publishing script');
    expect(first).toHaveTextContent('pr_live_ab12cd34…');
    expect(first).toHaveTextContent(/created .+ · expires .+ · last used .+ · 12 uses/);
    expect(first).toHaveTextContent('Scopes: read:postswrite:posts');
    expect(second).toHaveTextContent(/Never expires · Never used · 0 uses/);
    expect(within(first).getByRole('button', { name: 'Revoke Publishing script' })).toBeInTheDocument();
    expect(keyDetails({ ...reader, usageCount: 1 })).toMatch(/1 use$/);
  });

  it('says when there are none yet, and when the list could not be read (then reads it again)', async () => {
    mockApi.on('GET', '/keys', { status: 500 }, { once: true });
    const user = userEvent.setup();
    renderSection();
    expect(screen.getByText('Loading your API keys...')).toHaveAttribute('role', 'status');
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load your API keys');
    mockApi.on('GET', '/keys', { body: { keys: [] } });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument();
  });

  it('offers the scopes with what they allow in a fieldset, and the expiries', async () => {
    mockApi.on('GET', '/keys', { body: { keys: [] } });
    renderSection();
    const group = await screen.findByRole('group', { name: 'Scopes' });
    expect(await within(group).findByRole('checkbox', { name: /read:posts Read your posts, drafts included/ })).toBeInTheDocument();
    expect(within(group).getAllByRole('checkbox')).toHaveLength(2);
    const expiry = screen.getByLabelText('Expires after');
    expect(within(expiry).getAllByRole('option').map((o) => o.textContent)).toEqual(['30 days', '90 days', '1 year', 'Never']);
    expect(expiry).toHaveValue('90');
  });

  it('creates a key after the password step-up and shows it once, with Copy, until dismissed', async () => {
    mockApi.on('GET', '/keys', { body: { keys: [] } });
    mockApi.on('POST', '/keys', { status: 201, body: { ...reader, key: secretKey } });
    mockApi.on('POST', '/keys', reauthRequired, { once: true });
    mockApi.on('POST', '/auth/reauth', { body: { message: 'Confirmed.', reauthUntil: '2026-01-01T10:10:00Z' } });
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [] } });
    const user = userEvent.setup();
    renderSection();
    await screen.findByText('No API keys yet.');

    await user.type(screen.getByLabelText('Key name'), ' Reader ');
    await user.click(await screen.findByRole('checkbox', { name: /read:posts/ }));
    await user.selectOptions(screen.getByLabelText('Expires after'), 'Never');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.type(within(dialog).getByLabelText('Password'), 'secret');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    const shown = await screen.findByRole('textbox', { name: 'Your new API key' });
    expect(shown).toHaveValue(secretKey);
    expect(shown).toHaveAttribute('readonly');
    expect(shown).toHaveFocus();
    expect(shown).toHaveAccessibleDescription(/Copy it now: you will not see it again\./);
    expect(mockApi.calls('POST', '/keys')).toHaveLength(2);
    expect(mockApi.calls('POST', '/keys')[1].body).toEqual({ name: 'Reader', scopes: ['read:posts'], expiresInDays: null });
    expect(within(screen.getByRole('list', { name: 'Your API keys' })).getByText('Reader')).toBeInTheDocument();
    expect(screen.getByLabelText('Key name')).toHaveValue('');

    await user.click(screen.getByRole('button', { name: 'Copy your new api key' }));
    expect(await navigator.clipboard.readText()).toBe(secretKey);
    expect(screen.getByText('Copied to the clipboard.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByRole('textbox', { name: 'Your new API key' })).not.toBeInTheDocument();
    expect(screen.queryByText(secretKey)).not.toBeInTheDocument();
  });

  it('asks for a scope before sending, and shows the server’s refusal', async () => {
    mockApi.on('GET', '/keys', { body: { keys: [] } });
    mockApi.on('POST', '/keys', { status: 400, body: { message: 'You can have at most 25 keys.' } });
    const user = userEvent.setup();
    renderSection();
    await user.type(await screen.findByLabelText('Key name'), 'One more');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose at least one scope.');
    expect(mockApi.calls('POST', '/keys')).toHaveLength(0);
    await user.click(await screen.findByRole('checkbox', { name: /write:posts/ }));
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You can have at most 25 keys.');
    expect(mockApi.calls('POST', '/keys')[0].body).toEqual({ name: 'One more', scopes: ['write:posts'], expiresInDays: 90 });
    expect(screen.queryByRole('textbox', { name: 'Your new API key' })).not.toBeInTheDocument();
  });

  it('revokes a key after asking; Cancel keeps it', async () => {
    mockApi.on('GET', '/keys', { body: { keys: [script, reader] } });
    mockApi.on('DELETE', '/keys/k1', { body: { message: 'Key revoked' } });
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Revoke Publishing script' }));
    let confirm = screen.getByRole('dialog', { name: 'Revoke this API key?' });
    expect(confirm).toHaveTextContent('stops working at once');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(mockApi.calls('DELETE', '/keys/k1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Revoke Publishing script' }));
    confirm = screen.getByRole('dialog', { name: 'Revoke this API key?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke key' }));
    const list = screen.getByRole('list', { name: 'Your API keys' });
    await vi.waitFor(() => expect(within(list).queryByText('Publishing script')).not.toBeInTheDocument());
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(currentToasts().map((t) => t.message)).toContain('API key “Publishing script” revoked.');
  });
});
