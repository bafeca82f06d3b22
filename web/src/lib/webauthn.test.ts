import { WebAuthnError } from '@simplewebauthn/browser';
import { ApiError } from './http';
import { isCeremonyCancelled, isCeremonyRefused, PASSKEY_TEXT, passkeyErrorMessage, splitOptions } from './webauthn';

const browserError = (name: string, message = 'The operation either timed out or was not allowed.') => Object.assign(new Error(message), { name });

describe('passkey options', () => {
  it('hands the browser the options without challengeId, and keeps it for the answer', () => {
    const { challengeId, optionsJSON } = splitOptions({ challengeId: 'c1', challenge: 'abc', rpId: 'localhost', allowCredentials: [] });
    expect(challengeId).toBe('c1');
    expect(optionsJSON).toEqual({ challenge: 'abc', rpId: 'localhost', allowCredentials: [] });
  });

  it('refuses an answer without a challenge', () => {
    expect(() => splitOptions({ challenge: 'abc' })).toThrow('The server gave no passkey challenge.');
    expect(() => splitOptions({ challengeId: 'c1' })).toThrow('The server gave no passkey challenge.');
  });
});

describe('passkey errors', () => {
  it("says what the browser's refusals mean", () => {
    expect(passkeyErrorMessage(browserError('NotAllowedError'), PASSKEY_TEXT.setupCancelled, 'x')).toBe('Passkey setup was cancelled or timed out.');
    const known = new WebAuthnError({ message: 'known', code: 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED', cause: browserError('InvalidStateError') });
    expect(passkeyErrorMessage(known, PASSKEY_TEXT.setupCancelled, 'x')).toBe(PASSKEY_TEXT.alreadyRegistered);
    expect(passkeyErrorMessage(browserError('SecurityError'), PASSKEY_TEXT.setupCancelled, 'x')).toBe(PASSKEY_TEXT.insecure);
    expect(passkeyErrorMessage(new Error('WebAuthn is not supported in this browser'), PASSKEY_TEXT.setupCancelled, 'x')).toBe(PASSKEY_TEXT.unsupported);
  });

  it("gives the server's message, or the fallback", () => {
    const refused = new ApiError('This passkey was refused', 400, 'passkey_refused');
    expect(passkeyErrorMessage(refused, PASSKEY_TEXT.signInCancelled, 'Signing in failed')).toBe('This passkey was refused');
    expect(passkeyErrorMessage(new TypeError('odd'), PASSKEY_TEXT.signInCancelled, 'Signing in failed')).toBe('Signing in failed');
    expect(passkeyErrorMessage('odd', PASSKEY_TEXT.signInCancelled, 'Signing in failed')).toBe('Signing in failed');
  });

  it('tells a ceremony the page cancelled from one the person refused', () => {
    const aborted = new WebAuthnError({ message: 'aborted', code: 'ERROR_CEREMONY_ABORTED', cause: browserError('AbortError') });
    expect(isCeremonyCancelled(aborted)).toBe(true);
    expect(isCeremonyCancelled(browserError('AbortError'))).toBe(true);
    expect(isCeremonyCancelled(browserError('NotAllowedError'))).toBe(false);
    expect(isCeremonyRefused(browserError('NotAllowedError'))).toBe(true);
    expect(isCeremonyRefused(new ApiError('no', 400))).toBe(false);
  });
});
