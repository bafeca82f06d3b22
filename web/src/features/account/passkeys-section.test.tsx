// The settings page's passkeys (with the step-up dialog) and the security activity list; the
// browser's WebAuthn calls are stubbed.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as webauthn from '@simplewebauthn/browser';
import { ReauthDialog } from '@/features/auth';
import { currentToasts } from '@/lib/toast';
import { PASSKEY_TEXT } from '@/lib/webauthn';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { PasskeysSection } from './passkeys-section';
import { SecurityLog, securityActionLabel } from './security-log';

vi.mock('@simplewebauthn/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@simplewebauthn/browser')>()),
  browserSupportsWebAuthn: vi.fn(),
  platformAuthenticatorIsAvailable: vi.fn(),
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(),
}));

const laptop = {
  id: 'p1',
  name: 'Laptop',
  createdAt: '2026-01-01T10:00:00Z',
  lastUsedAt: null,
  kind: 'platform',
  backedUp: true,
  transports: ['internal'],
};
const key = { ...laptop, id: 'p2', name: 'Blue key', kind: 'cross-platform', backedUp: false, lastUsedAt: '2026-02-03T10:00:00Z' };
const creation = { challengeId: 'reg-1', challenge: 'abc', rp: { id: 'localhost', name: 'Pressroom' } };
const registration = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: { clientDataJSON: 'c', attestationObject: 'a' }, clientExtensionResults: {} };
const assertion = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: { clientDataJSON: 'c', authenticatorData: 'd', signature: 's' }, clientExtensionResults: {} };
const reauthRequired = { status: 403, body: { message: 'Please confirm your password to continue.', code: 'reauth_required' } };
const refusedByBrowser = () => Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' });

beforeEach(() => {
  vi.mocked(webauthn.browserSupportsWebAuthn).mockReturnValue(true);
  vi.mocked(webauthn.platformAuthenticatorIsAvailable).mockResolvedValue(true);
  vi.mocked(webauthn.startRegistration).mockResolvedValue(registration as unknown as webauthn.RegistrationResponseJSON);
  vi.mocked(webauthn.startAuthentication).mockResolvedValue(assertion as unknown as webauthn.AuthenticationResponseJSON);
  mockApi.on('GET', '/auth/security-log', { body: { events: [] } });
});

function renderSection() {
  return renderWithProviders(
    <>
      <PasskeysSection />
      <ReauthDialog />
    </>,
    { preloadedState: { auth: signedInAuth() } },
  );
}

describe('passkeys in settings', () => {
  it('lists each passkey: where it lives, synced or not, when added and last used', async () => {
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [laptop, key] } });
    renderSection();
    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent(/^LaptopSynced/);
    // "Built-in", not "This device": the list may be read on another device than the passkey's.
    expect(first).toHaveTextContent(/Built-in · added .+ · Never used/);
    expect(first).not.toHaveTextContent('This device');
    expect(second).not.toHaveTextContent('Synced');
    expect(second).toHaveTextContent(/Security key or phone · added .+ · last used /);
    expect(within(first).getByRole('button', { name: 'Rename Laptop' })).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Remove Laptop' })).toBeInTheDocument();
  });

  it('says when there are none yet, and when the list could not be read (then reads it again)', async () => {
    mockApi.on('GET', '/auth/passkeys', { status: 500 }, { once: true });
    const user = userEvent.setup();
    renderSection();
    expect(screen.getByText('Loading your passkeys...')).toHaveAttribute('role', 'status');
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load your passkeys');
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [] } });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/^No passkeys yet\./)).toBeInTheDocument();
  });

  it('adds a passkey after the password step-up: the browser gets the options without challengeId, the server the answer and the name', async () => {
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [] } });
    mockApi.on('POST', '/auth/passkeys/register/options', { body: creation });
    mockApi.on('POST', '/auth/passkeys/register/options', reauthRequired, { once: true });
    mockApi.on('POST', '/auth/reauth', { body: { message: 'Confirmed.', reauthUntil: '2026-01-01T10:10:00Z' } });
    mockApi.on('POST', '/auth/passkeys/register/verify', { status: 201, body: { ...laptop, name: 'MacBook' } });
    const user = userEvent.setup();
    renderSection();
    await screen.findByText(/^No passkeys yet\./);

    await user.type(screen.getByLabelText('Name for a new passkey'), ' MacBook ');
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    // No passkey yet to confirm with.
    expect(within(dialog).queryByRole('button', { name: 'Use a passkey instead' })).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Password'), 'secret');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    expect(within(list).getByText('MacBook')).toBeInTheDocument();
    expect(webauthn.startRegistration).toHaveBeenCalledWith({ optionsJSON: { challenge: 'abc', rp: { id: 'localhost', name: 'Pressroom' } } });
    expect(mockApi.calls('POST', '/auth/passkeys/register/verify')[0].body).toEqual({ challengeId: 'reg-1', name: 'MacBook', credential: registration });
    expect(mockApi.calls('POST', '/auth/passkeys/register/options')).toHaveLength(2);
    expect(currentToasts().map((t) => t.message)).toContain('Passkey “MacBook” added. You can use it to sign in.');
    expect(screen.getByLabelText('Name for a new passkey')).toHaveValue('');
    expect(mockApi.calls('GET', '/auth/security-log').length).toBeGreaterThanOrEqual(1);
    // This device has a built-in passkey: nothing to say about it.
    expect(screen.queryByText(PASSKEY_TEXT.noBuiltIn)).not.toBeInTheDocument();
  });

  it('says when this device has no built-in passkey, and still adds one (a phone or a security key)', async () => {
    vi.mocked(webauthn.platformAuthenticatorIsAvailable).mockResolvedValue(false);
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [] } });
    mockApi.on('POST', '/auth/passkeys/register/options', { body: creation });
    mockApi.on('POST', '/auth/passkeys/register/verify', { status: 201, body: { ...key, name: 'Phone' } });
    const user = userEvent.setup();
    renderSection();
    const note = await screen.findByText('This device has no built-in passkey; you can use a phone or a security key.');
    expect(note).not.toHaveAttribute('role', 'alert');
    const add = screen.getByRole('button', { name: 'Add a passkey' });
    expect(add).toHaveAccessibleDescription(PASSKEY_TEXT.noBuiltIn);

    await user.type(screen.getByLabelText('Name for a new passkey'), 'Phone');
    expect(add).toBeEnabled();
    await user.click(add);

    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    expect(within(list).getByText('Phone')).toBeInTheDocument();
    expect(within(list).getByRole('listitem')).toHaveTextContent(/Security key or phone · added/);
    expect(webauthn.startRegistration).toHaveBeenCalledTimes(1);
    expect(mockApi.calls('POST', '/auth/passkeys/register/verify')[0].body).toEqual({ challengeId: 'reg-1', name: 'Phone', credential: registration });
  });

  it('says nothing about a built-in passkey when the browser cannot tell', async () => {
    vi.mocked(webauthn.platformAuthenticatorIsAvailable).mockRejectedValue(new Error('unknown'));
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [] } });
    renderSection();
    await screen.findByText(/^No passkeys yet\./);
    await waitFor(() => expect(webauthn.platformAuthenticatorIsAvailable).toHaveBeenCalled());
    expect(screen.queryByText(PASSKEY_TEXT.noBuiltIn)).not.toBeInTheDocument();
  });

  it('says so when the person cancels the browser prompt, and adds nothing', async () => {
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [] } });
    mockApi.on('POST', '/auth/passkeys/register/options', { body: creation });
    vi.mocked(webauthn.startRegistration).mockRejectedValue(refusedByBrowser());
    const user = userEvent.setup();
    renderSection();
    await user.type(await screen.findByLabelText('Name for a new passkey'), 'Phone');
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Passkey setup was cancelled or timed out.');
    expect(mockApi.calls('POST', '/auth/passkeys/register/verify')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeEnabled();
  });

  it("shows the server's refusal of the browser's answer", async () => {
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [] } });
    mockApi.on('POST', '/auth/passkeys/register/options', { body: creation });
    mockApi.on('POST', '/auth/passkeys/register/verify', { status: 400, body: { message: 'This passkey was made for another site.' } });
    const user = userEvent.setup();
    renderSection();
    await user.type(await screen.findByLabelText('Name for a new passkey'), 'Phone');
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This passkey was made for another site.');
  });

  it('cannot add one in a browser without passkeys, but still lists them', async () => {
    vi.mocked(webauthn.browserSupportsWebAuthn).mockReturnValue(false);
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [laptop] } });
    renderSection();
    expect(await screen.findByRole('list', { name: 'Your passkeys' })).toBeInTheDocument();
    expect(screen.getByText(/This browser cannot use passkeys\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).not.toBeInTheDocument();
    expect(screen.queryByText(PASSKEY_TEXT.noBuiltIn)).not.toBeInTheDocument();
  });

  it('renames one in place (Escape cancels), focus back on Rename', async () => {
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [laptop] } });
    mockApi.on('PATCH', '/auth/passkeys/p1', { body: { ...laptop, name: 'Work laptop' } });
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Rename Laptop' }));
    expect(screen.getByLabelText('Passkey name')).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Rename Laptop' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Rename Laptop' }));
    const field = screen.getByLabelText('Passkey name');
    await user.clear(field);
    await user.type(field, 'Work laptop{Enter}');
    expect(await screen.findByRole('button', { name: 'Rename Work laptop' })).toHaveFocus();
    expect(mockApi.calls('PATCH', '/auth/passkeys/p1')[0].body).toEqual({ name: 'Work laptop' });
  });

  it('removes one after asking, confirming the step-up with a passkey', async () => {
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [laptop] } });
    mockApi.on('DELETE', '/auth/passkeys/p1', { body: { message: 'Passkey removed' } });
    mockApi.on('DELETE', '/auth/passkeys/p1', reauthRequired, { once: true });
    mockApi.on('POST', '/auth/passkeys/reauth/options', { body: { challengeId: 're-1', challenge: 'xyz', allowCredentials: [{ id: 'cred-1', type: 'public-key' }] } });
    mockApi.on('POST', '/auth/reauth', { body: { message: 'Confirmed.', reauthUntil: '2026-01-01T10:10:00Z' } });
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Remove Laptop' }));
    const confirm = screen.getByRole('dialog', { name: 'Remove this passkey?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove passkey' }));
    const reauth = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(await within(reauth).findByRole('button', { name: 'Use a passkey instead' }));

    expect(await screen.findByText(/^No passkeys yet\./)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'xyz', allowCredentials: [{ id: 'cred-1', type: 'public-key' }] },
      useBrowserAutofill: false,
    });
    expect(mockApi.calls('POST', '/auth/reauth')[0].body).toEqual({ passkey: { challengeId: 're-1', credential: assertion } });
    expect(mockApi.calls('DELETE', '/auth/passkeys/p1')).toHaveLength(2);
    expect(currentToasts().map((t) => t.message)).toContain('Passkey “Laptop” removed.');
  });

  it("keeps the passkey and says why when the server refuses (the account's last way to sign in)", async () => {
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [laptop] } });
    mockApi.on('DELETE', '/auth/passkeys/p1', { status: 400, body: { message: 'This passkey is the only way to sign in to your account.' } });
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Remove Laptop' }));
    const confirm = screen.getByRole('dialog', { name: 'Remove this passkey?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove passkey' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent('This passkey is the only way to sign in to your account.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('list', { name: 'Your passkeys' })).toHaveTextContent('Laptop');
  });

  it("says when the passkey step-up was cancelled in the browser, and the password still works", async () => {
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [laptop] } });
    mockApi.on('DELETE', '/auth/passkeys/p1', reauthRequired, { once: true });
    mockApi.on('POST', '/auth/passkeys/reauth/options', { body: { challengeId: 're-1', challenge: 'xyz' } });
    vi.mocked(webauthn.startAuthentication).mockRejectedValue(refusedByBrowser());
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Remove Laptop' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Remove this passkey?' })).getByRole('button', { name: 'Remove passkey' }));
    const reauth = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(await within(reauth).findByRole('button', { name: 'Use a passkey instead' }));
    expect(await within(reauth).findByRole('alert')).toHaveTextContent('The passkey check was cancelled or timed out');
    expect(mockApi.calls('POST', '/auth/reauth')).toHaveLength(0);
    expect(within(reauth).getByLabelText('Password')).toBeInTheDocument();
  });
});

describe('recent security activity', () => {
  it('lists the events in words, with their detail', async () => {
    mockApi.on('GET', '/auth/security-log', {
      body: {
        events: [
          { id: 'e2', action: 'passkey.refused', at: '2026-01-02T10:00:00Z', detail: 'Laptop (device did not verify the person)' },
          { id: 'e1', action: 'passkey.add', at: '2026-01-01T10:00:00Z', detail: 'Laptop' },
          { id: 'e0', action: 'two_factor.enable', at: '2026-01-01T09:00:00Z', detail: null },
        ],
      },
    });
    renderWithProviders(<SecurityLog />, { preloadedState: { auth: signedInAuth() } });
    const list = await screen.findByRole('list', { name: 'Recent security activity' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Passkey refused');
    expect(items[0]).toHaveTextContent('device did not verify the person');
    expect(items[1]).toHaveTextContent(/Passkey added\s*Laptop/);
    expect(items[2]).toHaveTextContent('Two-factor sign-in turned on');
  });

  it('says when there is nothing yet', async () => {
    renderWithProviders(<SecurityLog />, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByText(/^Nothing yet\./)).toBeInTheDocument();
  });

  it('spells out actions it has no words for', () => {
    expect(securityActionLabel('passkey.sign_in')).toBe('Signed in with a passkey');
    expect(securityActionLabel('account.something_new')).toBe('Account something new');
  });
});
