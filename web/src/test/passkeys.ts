/**
 * Passkey fixtures for unit tests: a stored passkey, the assertion a browser gives, the browser's
 * refusal (cancel or time-out), and a page whose browser can use passkeys and whose person has
 * one. Test files still `vi.mock('@simplewebauthn/browser', ...)` themselves (mocks are hoisted
 * per file); `passkeyReady` sets what those mocks answer.
 */
import * as webauthn from '@simplewebauthn/browser';
import { mockApi } from './mock-api';

export const laptopPasskey = { id: 'p1', name: 'Laptop', createdAt: '2026-01-01T10:00:00Z', lastUsedAt: null, kind: 'platform', backedUp: true, transports: ['internal'] };
export const testAssertion = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: { clientDataJSON: 'c', authenticatorData: 'd', signature: 's' }, clientExtensionResults: {} };
export const refusedByBrowser = () => Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' });

/** WebAuthn available, the assertion given, one passkey listed and step-up options served. */
export function passkeyReady() {
  vi.mocked(webauthn.browserSupportsWebAuthn).mockReturnValue(true);
  vi.mocked(webauthn.startAuthentication).mockResolvedValue(testAssertion as unknown as webauthn.AuthenticationResponseJSON);
  mockApi.on('GET', '/auth/passkeys', { body: { passkeys: [laptopPasskey] } });
  mockApi.on('POST', '/auth/passkeys/reauth/options', { body: { challengeId: 're-1', challenge: 'xyz' } });
}
