/**
 * Passkeys in the browser (WebAuthn through @simplewebauthn/browser): the server's options are
 * handed to the browser without their `challengeId`, which goes back with the browser's answer.
 * One ceremony runs at a time: starting one cancels the one before (a sign-in page's autofill
 * request gives way to its button). Code in a reader's first load imports this module when it is
 * used (the step-up dialog), so the library stays out of that load.
 */
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  platformAuthenticatorIsAvailable,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { ApiError, errorMessage, isApiFailure } from './http';

export { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill };
export type { AuthenticationResponseJSON, RegistrationResponseJSON };

/**
 * Whether the browser says this device has no built-in passkey (Touch ID, Windows Hello, an
 * Android screen lock): such a browser can still use a phone (cross-device) or a security key.
 * False when the browser has one, or cannot tell.
 */
export async function lacksBuiltInPasskey(): Promise<boolean> {
  try {
    return !(await platformAuthenticatorIsAvailable());
  } catch {
    return false;
  }
}

/** What the server's options routes answer: the WebAuthn options and the challenge's `challengeId`. */
export type PasskeyOptionsAnswer = object;

/** The browser's answer to a ceremony, ready for a verify route. */
export interface PasskeyAnswer<C> {
  challengeId: string;
  credential: C;
}

/** The options without `challengeId` (the browser is given only the WebAuthn fields). */
export function splitOptions<T>(answer: PasskeyOptionsAnswer): { challengeId: string; optionsJSON: T } {
  const { challengeId, ...optionsJSON } = answer as { challengeId?: unknown };
  if (typeof challengeId !== 'string' || !('challenge' in optionsJSON)) throw new Error('The server gave no passkey challenge.');
  return { challengeId, optionsJSON: optionsJSON as T };
}

/** Creates a passkey with the registration options the server gave. */
export async function createPasskey(answer: PasskeyOptionsAnswer): Promise<PasskeyAnswer<RegistrationResponseJSON>> {
  const { challengeId, optionsJSON } = splitOptions<PublicKeyCredentialCreationOptionsJSON>(answer);
  return { challengeId, credential: await startRegistration({ optionsJSON }) };
}

/**
 * Signs with a passkey for the request options the server gave; `autofill` waits for the person
 * to pick one among the email field's suggestions (conditional mediation) instead of asking now.
 */
export async function getPasskey(answer: PasskeyOptionsAnswer, { autofill = false } = {}): Promise<PasskeyAnswer<AuthenticationResponseJSON>> {
  const { challengeId, optionsJSON } = splitOptions<PublicKeyCredentialRequestOptionsJSON>(answer);
  return { challengeId, credential: await startAuthentication({ optionsJSON, useBrowserAutofill: autofill }) };
}

/** Stops the ceremony under way, if any (a page that waited for autofill is left). */
export function cancelPasskeyCeremony(): void {
  WebAuthnAbortService.cancelCeremony();
}

/** A ceremony this page cancelled itself (another one started, or the page was left). */
export function isCeremonyCancelled(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || ('code' in error && error.code === 'ERROR_CEREMONY_ABORTED'));
}

/** The person closed the browser's prompt, let it time out, or the device did not confirm them. */
export function isCeremonyRefused(error: unknown): boolean {
  return error instanceof Error && error.name === 'NotAllowedError';
}

export const PASSKEY_TEXT = {
  unsupported: 'This browser cannot use passkeys.',
  setupCancelled: 'Passkey setup was cancelled or timed out.',
  signInCancelled: 'Signing in with a passkey was cancelled or timed out, or your device could not confirm it’s you. Try again, or log in with your password.',
  confirmCancelled: 'The passkey check was cancelled or timed out, or your device could not confirm it’s you.',
  alreadyRegistered: 'This device already has a passkey for your account.',
  insecure: 'Passkeys cannot be used on this address of the site.',
  noBuiltIn: 'This device has no built-in passkey; you can use a phone or a security key.',
  confirmPrompt: 'Follow your browser’s prompt to confirm it’s you with a passkey.',
} as const;

/**
 * The text to show for a failed passkey step: the browser's refusals in plain words (what
 * `cancelled` says for the step that was under way), the server's message for the rest.
 */
export function passkeyErrorMessage(error: unknown, cancelled: string, fallback: string): string {
  if (error instanceof ApiError || isApiFailure(error)) return errorMessage(error, fallback);
  if (!(error instanceof Error)) return fallback;
  if (isCeremonyRefused(error)) return cancelled;
  if (error.name === 'InvalidStateError') return PASSKEY_TEXT.alreadyRegistered;
  if (error.name === 'SecurityError') return PASSKEY_TEXT.insecure;
  if (error.name === 'NotSupportedError' || /not supported/i.test(error.message)) return PASSKEY_TEXT.unsupported;
  return fallback;
}
