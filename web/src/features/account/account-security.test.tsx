// The settings page's sessions list and two-factor section, on the generated endpoints; the
// browser's WebAuthn calls are stubbed.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as webauthn from '@simplewebauthn/browser';
import { currentToasts } from '@/lib/toast';
import { PASSKEY_TEXT } from '@/lib/webauthn';
import { mockApi } from '@/test/mock-api';
import { passkeyReady, refusedByBrowser, testAssertion as assertion } from '@/test/passkeys';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { SessionList, TwoFactorSection } from './account-security';

vi.mock('@simplewebauthn/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@simplewebauthn/browser')>()),
  browserSupportsWebAuthn: vi.fn(),
  startAuthentication: vi.fn(),
}));

beforeEach(() => {
  vi.mocked(webauthn.browserSupportsWebAuthn).mockReturnValue(false);
});

const here = {
  id: 's1',
  userAgent: 'Firefox',
  device: 'Firefox on Linux',
  ip: '203.0.113.5',
  city: 'Leeds',
  country: 'United Kingdom',
  createdAt: '2026-01-01T10:00:00Z',
  lastSeenAt: '2026-01-02T10:00:00Z',
  current: true,
};
const phone = { ...here, id: 's2', device: 'Safari on iOS', ip: null, city: 'Unknown', country: 'Unknown', current: false };

describe('the sessions list', () => {
  it('lists the sessions and signs another one out (DELETE /auth/sessions/{id}), without asking for the list again', async () => {
    mockApi.on('GET', '/auth/sessions', { body: { sessions: [phone, here] } });
    mockApi.on('DELETE', '/auth/sessions/s2', { body: { message: 'Signed out' } });
    const user = userEvent.setup();
    renderWithProviders(<SessionList />, { preloadedState: { auth: signedInAuth() } });
    const list = await screen.findByRole('list', { name: 'Signed-in sessions' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText('This device')).toBeInTheDocument();
    expect(within(list).getByText(/Unknown place/)).toBeInTheDocument();

    await user.click(within(list).getByRole('button', { name: /^Sign out Safari on iOS/ }));

    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(currentToasts().map((t) => t.message)).toContain('Signed out of Safari on iOS.');
    expect(mockApi.calls('DELETE', '/auth/sessions/s2')).toHaveLength(1);
    expect(mockApi.calls('GET', '/auth/sessions')).toHaveLength(1);
  });

  it('reads nothing while the page is opened at another section', () => {
    renderWithProviders(<SessionList />, { preloadedState: { auth: signedInAuth() }, route: '/user-setting#your-data' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading your sessions...');
    expect(mockApi.calls('GET', '/auth/sessions')).toHaveLength(0);
  });

  it("says 'Could not load your sessions' when the server gives no message, and tries again", async () => {
    mockApi.on('GET', '/auth/sessions', { status: 500 }, { once: true });
    const user = userEvent.setup();
    renderWithProviders(<SessionList />, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load your sessions');
    mockApi.on('GET', '/auth/sessions', { body: { sessions: [here] } });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Signed-in sessions' })).toBeInTheDocument();
  });

  it("shows the server's message when a sign-out is refused", async () => {
    mockApi.on('GET', '/auth/sessions', { body: { sessions: [phone, here] } });
    mockApi.on('DELETE', '/auth/sessions/s2', { status: 404, body: { message: 'No such session', code: 'not_found' } });
    const user = userEvent.setup();
    renderWithProviders(<SessionList />, { preloadedState: { auth: signedInAuth() } });
    await user.click(await screen.findByRole('button', { name: /^Sign out Safari on iOS/ }));
    await waitFor(() => expect(currentToasts().map((t) => t.message)).toContain('No such session'));
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });
});

describe('two-factor sign-in', () => {
  it('turns it on with a code, shows the recovery codes once, then reads the state again', async () => {
    let enabled = false;
    mockApi.on('GET', '/auth/2fa', () => ({ body: { enabled, recoveryCodesLeft: enabled ? 10 : 0 } }));
    mockApi.on('POST', '/auth/2fa/setup', { body: { secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/Pressroom:ada?secret=JBSWY3DPEHPK3PXP' } });
    mockApi.on('POST', '/auth/2fa/enable', () => {
      enabled = true;
      return { body: { message: 'Two-factor sign-in is on', recoveryCodes: ['aaaa-bbbb', 'cccc-dddd'] } };
    });
    const user = userEvent.setup();
    renderWithProviders(<TwoFactorSection />, { preloadedState: { auth: signedInAuth() } });

    await user.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }));
    expect(await screen.findByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(mockApi.calls('POST', '/auth/2fa/setup')[0].body).toEqual({});
    await user.type(screen.getByLabelText('6-digit code'), ' 123456 ');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));

    expect(await screen.findByTestId('recovery-codes')).toHaveTextContent('aaaa-bbbb');
    expect(mockApi.calls('POST', '/auth/2fa/enable')[0].body).toEqual({ code: '123456' });
    await user.click(screen.getByRole('button', { name: 'I saved them' }));
    expect(await screen.findByText(/10 recovery codes left/)).toBeInTheDocument();
    expect(mockApi.calls('GET', '/auth/2fa')).toHaveLength(2);
  });
});

describe('two-factor sign-in confirmed with a passkey', () => {
  const proof = { challengeId: 're-1', credential: assertion };

  beforeEach(passkeyReady);

  /** Two-factor on; "Use a passkey instead" chosen (focus stays on the switch, now the other way). */
  async function choosePasskey(user: ReturnType<typeof userEvent.setup>) {
    renderWithProviders(<TwoFactorSection />, { preloadedState: { auth: signedInAuth() } });
    const instead = await screen.findByRole('button', { name: 'Use a passkey instead' });
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    await user.click(instead);
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Authenticator or recovery code')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use your password instead' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Turn off' })).toHaveAccessibleDescription(/ask for your passkey in place of your password and code/);
  }

  it('turns it off with a passkey: the request carries the assertion, no password and no code', async () => {
    let enabled = true;
    mockApi.on('GET', '/auth/2fa', () => ({ body: { enabled, recoveryCodesLeft: enabled ? 8 : 0 } }));
    mockApi.on('POST', '/auth/2fa/disable', () => {
      enabled = false;
      return { body: { message: 'Two-factor sign-in is off' } };
    });
    const user = userEvent.setup();
    await choosePasskey(user);
    await user.click(screen.getByRole('button', { name: 'Turn off' }));

    expect(await screen.findByRole('button', { name: 'Set up two-factor sign-in' })).toBeInTheDocument();
    const [sent] = mockApi.calls('POST', '/auth/2fa/disable');
    expect(sent.body).toEqual({ passkey: proof });
    expect(sent.body).not.toHaveProperty('password');
    expect(sent.body).not.toHaveProperty('code');
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'xyz' }, useBrowserAutofill: false });
    expect(currentToasts().map((t) => t.message)).toContain('Two-factor sign-in is off.');
  });

  it('gets new recovery codes with a passkey', async () => {
    mockApi.on('GET', '/auth/2fa', { body: { enabled: true, recoveryCodesLeft: 2 } });
    mockApi.on('POST', '/auth/2fa/recovery-codes', { body: { message: 'New recovery codes', recoveryCodes: ['eeee-ffff', 'gggg-hhhh'] } });
    const user = userEvent.setup();
    await choosePasskey(user);
    await user.click(screen.getByRole('button', { name: 'New recovery codes' }));

    expect(await screen.findByTestId('recovery-codes')).toHaveTextContent('eeee-ffff');
    const [sent] = mockApi.calls('POST', '/auth/2fa/recovery-codes');
    expect(sent.body).toEqual({ passkey: proof });
    expect(sent.body).not.toHaveProperty('password');
    expect(mockApi.calls('POST', '/auth/2fa/disable')).toHaveLength(0);
  });

  it('says so when the passkey prompt is cancelled or times out, sends nothing, and the password is one click away', async () => {
    mockApi.on('GET', '/auth/2fa', { body: { enabled: true, recoveryCodesLeft: 8 } });
    vi.mocked(webauthn.startAuthentication).mockRejectedValue(refusedByBrowser());
    const user = userEvent.setup();
    await choosePasskey(user);
    await user.click(screen.getByRole('button', { name: 'Turn off' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(PASSKEY_TEXT.confirmCancelled);
    expect(mockApi.calls('POST', '/auth/2fa/disable')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Turn off' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Use your password instead' }));
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use a passkey instead' })).toHaveFocus();
  });

  it("shows the server's refusal of the passkey", async () => {
    mockApi.on('GET', '/auth/2fa', { body: { enabled: true, recoveryCodesLeft: 8 } });
    mockApi.on('POST', '/auth/2fa/disable', { status: 400, body: { message: 'This passkey belongs to another account.', code: 'passkey_other_account' } });
    const user = userEvent.setup();
    await choosePasskey(user);
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This passkey belongs to another account.');
    expect(screen.getByText(/8 recovery codes left/)).toBeInTheDocument();
  });

  it('still sends the password and the code when the passkey is not chosen', async () => {
    mockApi.on('GET', '/auth/2fa', { body: { enabled: true, recoveryCodesLeft: 8 } });
    mockApi.on('POST', '/auth/2fa/recovery-codes', { body: { message: 'New recovery codes', recoveryCodes: ['iiii-jjjj'] } });
    const user = userEvent.setup();
    renderWithProviders(<TwoFactorSection />, { preloadedState: { auth: signedInAuth() } });
    await screen.findByRole('button', { name: 'Use a passkey instead' });
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.type(screen.getByLabelText('Authenticator or recovery code'), ' 123456 ');
    await user.click(screen.getByRole('button', { name: 'New recovery codes' }));
    expect(await screen.findByTestId('recovery-codes')).toHaveTextContent('iiii-jjjj');
    expect(mockApi.calls('POST', '/auth/2fa/recovery-codes')[0].body).toEqual({ password: 'secret', code: '123456' });
    expect(webauthn.startAuthentication).not.toHaveBeenCalled();
  });

  it('offers no passkey to someone without one, nor in a browser that cannot use one (the list is not even read)', async () => {
    mockApi.on('GET', '/auth/2fa', { body: { enabled: true, recoveryCodesLeft: 8 } });
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [] } });
    const first = renderWithProviders(<TwoFactorSection />, { preloadedState: { auth: signedInAuth() } });
    await screen.findByLabelText('Password');
    await waitFor(() => expect(mockApi.calls('GET', '/auth/passkeys')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Use a passkey instead' })).not.toBeInTheDocument();
    first.unmount();

    vi.mocked(webauthn.browserSupportsWebAuthn).mockReturnValue(false);
    renderWithProviders(<TwoFactorSection />, { preloadedState: { auth: signedInAuth() } });
    await screen.findByLabelText('Password');
    expect(screen.queryByRole('button', { name: 'Use a passkey instead' })).not.toBeInTheDocument();
    expect(mockApi.calls('GET', '/auth/passkeys')).toHaveLength(1);
  });
});
