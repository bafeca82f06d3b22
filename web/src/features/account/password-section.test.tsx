// "Change password" on the settings page, with the current password or a passkey in its place;
// the browser's WebAuthn calls are stubbed.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as webauthn from '@simplewebauthn/browser';
import { currentToasts } from '@/lib/toast';
import { PASSKEY_TEXT } from '@/lib/webauthn';
import { mockApi } from '@/test/mock-api';
import { passkeyReady, refusedByBrowser, testAssertion as assertion } from '@/test/passkeys';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { PASSWORD_CHANGED, PasswordSection } from './password-section';

vi.mock('@simplewebauthn/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@simplewebauthn/browser')>()),
  browserSupportsWebAuthn: vi.fn(),
  startAuthentication: vi.fn(),
}));

const changed = { body: { message: 'Password changed successfully. Other sessions have been logged out.', token: 'new' } };

beforeEach(() => {
  passkeyReady();
  localStorage.setItem('jwt', 'old');
});

function renderSection() {
  return renderWithProviders(<PasswordSection />, { preloadedState: { auth: signedInAuth({ token: 'old' }) } });
}

async function typeNewPassword(user: ReturnType<typeof userEvent.setup>, next: string, confirm = next) {
  await user.type(screen.getByLabelText('New password'), next);
  await user.type(screen.getByLabelText('Confirm new password'), confirm);
}

describe('changing the password', () => {
  it('with a passkey in place of the current password: the new password is sent with the assertion, no current password', async () => {
    mockApi.on('POST', '/auth/change-password', changed);
    const user = userEvent.setup();
    const { store } = renderSection();
    await user.click(await screen.findByRole('button', { name: 'Use a passkey instead' }));
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use your password instead' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Change password' })).toHaveAccessibleDescription(/ask for your passkey in place of your current password/);
    await typeNewPassword(user, 'a new long password');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    await waitFor(() => expect(screen.getByText(PASSWORD_CHANGED)).toHaveAttribute('role', 'status'));
    const [sent] = mockApi.calls('POST', '/auth/change-password');
    expect(sent.body).toEqual({ newPassword: 'a new long password', passkey: { challengeId: 're-1', credential: assertion } });
    expect(sent.body).not.toHaveProperty('currentPassword');
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'xyz' }, useBrowserAutofill: false });
    expect(store.getState().auth.token).toBe('new');
    expect(localStorage.getItem('jwt')).toBe('new');
    expect(currentToasts().map((t) => t.message)).toContain(PASSWORD_CHANGED);
    // Back to the password for next time, the fields emptied.
    expect(screen.getByLabelText('Current password')).toHaveValue('');
    expect(screen.getByLabelText('New password')).toHaveValue('');
  });

  it('checks the new password before asking for the passkey', async () => {
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Use a passkey instead' }));
    await typeNewPassword(user, 'short');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Password must be at least 8 characters');
    expect(webauthn.startAuthentication).not.toHaveBeenCalled();
    expect(mockApi.calls('POST', '/auth/passkeys/reauth/options')).toHaveLength(0);
  });

  it('says so when the passkey prompt is cancelled or times out, and changes nothing', async () => {
    vi.mocked(webauthn.startAuthentication).mockRejectedValue(refusedByBrowser());
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Use a passkey instead' }));
    await typeNewPassword(user, 'a new long password');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(PASSKEY_TEXT.confirmCancelled);
    expect(mockApi.calls('POST', '/auth/change-password')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Change password' })).toBeEnabled();
    expect(screen.getByLabelText('New password')).toHaveValue('a new long password');
  });

  it("shows the server's refusal", async () => {
    mockApi.on('POST', '/auth/change-password', { status: 400, body: { message: 'The new password must be different from the current one' } });
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Use a passkey instead' }));
    await typeNewPassword(user, 'a new long password');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The new password must be different from the current one');
  });

  it('with the current password when the passkey is not chosen', async () => {
    mockApi.on('POST', '/auth/change-password', changed);
    const user = userEvent.setup();
    renderSection();
    await screen.findByRole('button', { name: 'Use a passkey instead' });
    await user.type(screen.getByLabelText('Current password'), 'old password');
    await typeNewPassword(user, 'a new long password');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(screen.getByText(PASSWORD_CHANGED)).toBeInTheDocument());
    expect(mockApi.calls('POST', '/auth/change-password')[0].body).toEqual({ currentPassword: 'old password', newPassword: 'a new long password' });
    expect(webauthn.startAuthentication).not.toHaveBeenCalled();
  });

  it('offers no passkey to someone without one', async () => {
    mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [] } });
    renderSection();
    await waitFor(() => expect(mockApi.calls('GET', '/auth/passkeys')).toHaveLength(1));
    expect(screen.getByLabelText('Current password')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Use a passkey instead' })).not.toBeInTheDocument();
  });
});
