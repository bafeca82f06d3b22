// "Delete my account" on the settings page, confirmed with the password or a passkey; the browser's
// WebAuthn calls are stubbed.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as webauthn from '@simplewebauthn/browser';
import { currentToasts } from '@/lib/toast';
import { PASSKEY_TEXT } from '@/lib/webauthn';
import { mockApi } from '@/test/mock-api';
import { passkeyReady, refusedByBrowser, testAssertion as assertion } from '@/test/passkeys';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { DeleteAccountSection, graceInWords } from './leave-section';

vi.mock('@simplewebauthn/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@simplewebauthn/browser')>()),
  browserSupportsWebAuthn: vi.fn(),
  startAuthentication: vi.fn(),
}));


beforeEach(() => {
  passkeyReady();
  mockApi.on('GET', '/config/public', { body: { googleClientId: null, accountDeletionGraceSeconds: 14 * 86400 } });
  localStorage.setItem('jwt', 'tok');
});

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  const view = renderWithProviders(<DeleteAccountSection />, { preloadedState: { auth: signedInAuth({ token: 'tok' }) }, route: '/user-setting' });
  await screen.findByText(/after 14 days removes your profile/);
  await user.click(screen.getByRole('button', { name: 'Delete my account' }));
  return { ...view, dialog: screen.getByRole('dialog', { name: 'Delete your account?' }) };
}

describe('deleting the account', () => {
  it('with a passkey: the request carries the assertion and no password, then signs out to the login page', async () => {
    mockApi.on('POST', '/user/delete-account', { body: { message: 'Scheduled', deletionScheduledAt: '2026-12-12T10:00:00Z' } });
    mockApi.on('POST', '/auth/logout', { body: { message: 'Logged out' } });
    const user = userEvent.setup();
    const { dialog } = await openDialog(user);
    await user.click(await within(dialog).findByRole('button', { name: 'Use a passkey instead' }));

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    const [sent] = mockApi.calls('POST', '/user/delete-account');
    expect(sent.body).toEqual({ passkey: { challengeId: 're-1', credential: assertion } });
    expect(sent.body).not.toHaveProperty('password');
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'xyz' }, useBrowserAutofill: false });
    expect(currentToasts().map((t) => t.message)).toContainEqual(expect.stringMatching(/^Your account will be deleted on .+\. Sign in before then to keep it\.$/));
    expect(localStorage.getItem('jwt')).toBeNull();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says so when the passkey prompt is cancelled or times out, and deletes nothing', async () => {
    vi.mocked(webauthn.startAuthentication).mockRejectedValue(refusedByBrowser());
    const user = userEvent.setup();
    const { dialog } = await openDialog(user);
    await user.click(await within(dialog).findByRole('button', { name: 'Use a passkey instead' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(PASSKEY_TEXT.confirmCancelled);
    expect(mockApi.calls('POST', '/user/delete-account')).toHaveLength(0);
    expect(within(dialog).getByRole('button', { name: 'Use a passkey instead' })).toBeEnabled();
    expect(screen.getByTestId('location')).toHaveTextContent('/user-setting');
  });

  it("shows the server's refusal of the passkey and keeps the account", async () => {
    mockApi.on('POST', '/user/delete-account', { status: 400, body: { message: 'This passkey belongs to another account.', code: 'passkey_other_account' } });
    const user = userEvent.setup();
    const { dialog } = await openDialog(user);
    await user.click(await within(dialog).findByRole('button', { name: 'Use a passkey instead' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This passkey belongs to another account.');
    expect(mockApi.calls('POST', '/auth/logout')).toHaveLength(0);
  });

  it('offers no passkey to someone without one', async () => {
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [] } });
    const user = userEvent.setup();
    const { dialog } = await openDialog(user);
    await waitFor(() => expect(mockApi.calls('GET', '/auth/passkeys')).toHaveLength(1));
    expect(within(dialog).getByLabelText('Password')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Use a passkey instead' })).not.toBeInTheDocument();
  });

  it('puts the grace period in words', () => {
    expect(graceInWords(14 * 86400)).toBe('14 days');
    expect(graceInWords(3600)).toBe('1 hour');
    expect(graceInWords(90)).toBe('90 seconds');
  });
});
