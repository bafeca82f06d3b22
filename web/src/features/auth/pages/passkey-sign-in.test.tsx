// Signing in with a passkey on the login page: the button, the email field's suggestions
// (conditional mediation) and their failures; the browser's WebAuthn calls are stubbed.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as webauthn from '@simplewebauthn/browser';
import { mockApi } from '@/test/mock-api';
import { guestAuth, renderWithProviders } from '@/test/render';
import LoginPage from './login-page';

vi.mock('@simplewebauthn/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@simplewebauthn/browser')>()),
  browserSupportsWebAuthn: vi.fn(),
  browserSupportsWebAuthnAutofill: vi.fn(),
  startAuthentication: vi.fn(),
}));

const session = { _id: 'u1', fullName: 'Ada Lovelace', email: 'ada@example.com', role: 'user', token: 'tok', isAccountVerified: true };
const options = { challengeId: 'ch-1', challenge: 'abc', rpId: 'localhost', allowCredentials: [], userVerification: 'required' };
const assertion = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: { clientDataJSON: 'c', authenticatorData: 'd', signature: 's' }, clientExtensionResults: {} };
const refusedByBrowser = () => Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' });

beforeEach(() => {
  mockApi.on('GET', '/config/public', { body: { googleClientId: null } });
  vi.mocked(webauthn.browserSupportsWebAuthn).mockReturnValue(true);
  vi.mocked(webauthn.browserSupportsWebAuthnAutofill).mockResolvedValue(false);
  vi.mocked(webauthn.startAuthentication).mockResolvedValue(assertion as unknown as webauthn.AuthenticationResponseJSON);
});

function renderLogin(route = '/login') {
  return renderWithProviders(<LoginPage />, { preloadedState: { auth: guestAuth() }, route, path: '/login' });
}

describe('signing in with a passkey', () => {
  it('asks the browser for any passkey of the site (no email) and signs in as a password sign-in does', async () => {
    mockApi.on('POST', '/auth/passkeys/login/options', { body: options });
    mockApi.on('POST', '/auth/passkeys/login/verify', { body: session });
    const user = userEvent.setup();
    const { store } = renderLogin('/login?redirect=/bookmark');
    expect(screen.getByLabelText('Email')).toHaveAttribute('autocomplete', 'username webauthn');
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/bookmark'));
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'abc', rpId: 'localhost', allowCredentials: [], userVerification: 'required' },
      useBrowserAutofill: false,
    });
    expect(mockApi.calls('POST', '/auth/passkeys/login/verify')[0].body).toEqual({ challengeId: 'ch-1', credential: assertion });
    expect(store.getState().auth).toMatchObject({ isAuthenticated: true, token: 'tok', user: { name: 'Ada Lovelace' } });
  });

  it('says so when the person cancels or the device cannot verify them, and stays on the page', async () => {
    mockApi.on('POST', '/auth/passkeys/login/options', { body: options });
    vi.mocked(webauthn.startAuthentication).mockRejectedValue(refusedByBrowser());
    const user = userEvent.setup();
    const { store } = renderLogin();
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Signing in with a passkey was cancelled or timed out, or your device could not confirm it’s you.');
    expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();
    expect(mockApi.calls('POST', '/auth/passkeys/login/verify')).toHaveLength(0);
    expect(store.getState().auth.isAuthenticated).toBe(false);
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it("shows the server's refusal of the passkey", async () => {
    mockApi.on('POST', '/auth/passkeys/login/options', { body: options });
    mockApi.on('POST', '/auth/passkeys/login/verify', { status: 400, body: { message: 'This passkey is not registered here.', code: 'passkey_unknown' } });
    const user = userEvent.setup();
    renderLogin();
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This passkey is not registered here.');
  });

  it("offers the site's passkeys among the email field's suggestions, and signs in with the one picked", async () => {
    vi.mocked(webauthn.browserSupportsWebAuthnAutofill).mockResolvedValue(true);
    mockApi.on('POST', '/auth/passkeys/login/options', { body: options });
    mockApi.on('POST', '/auth/passkeys/login/verify', { body: session });
    renderLogin();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(webauthn.startAuthentication).toHaveBeenCalledWith(expect.objectContaining({ useBrowserAutofill: true }));
  });

  it('says nothing when the suggestion is dismissed, and stops waiting for it on leaving the page', async () => {
    vi.mocked(webauthn.browserSupportsWebAuthnAutofill).mockResolvedValue(true);
    vi.mocked(webauthn.startAuthentication).mockRejectedValue(refusedByBrowser());
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const cancel = vi.spyOn(webauthn.WebAuthnAbortService, 'cancelCeremony');
    mockApi.on('POST', '/auth/passkeys/login/options', { body: options });
    const { unmount } = renderLogin();
    await waitFor(() => expect(webauthn.startAuthentication).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    unmount();
    expect(cancel).toHaveBeenCalled();
  });

  it('offers no passkey button in a browser without passkeys', () => {
    vi.mocked(webauthn.browserSupportsWebAuthn).mockReturnValue(false);
    renderLogin();
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });
});
