/**
 * The step-up dialog's passkey part, loaded when the dialog opens: the dialog is part of every
 * first load, the passkey library and the generated endpoints are not.
 */
import { api } from '@/api/endpoints';
import type { useAppDispatch } from '@/app/hooks';
import { browserSupportsWebAuthn, getPasskey, isCeremonyCancelled, PASSKEY_TEXT, passkeyErrorMessage } from '@/lib/webauthn';

type Dispatch = ReturnType<typeof useAppDispatch>;

/** Whether to offer "Use a passkey instead": the browser can use one and the person has one. */
export async function canConfirmWithPasskey(dispatch: Dispatch): Promise<boolean> {
  if (!browserSupportsWebAuthn()) return false;
  const { passkeys } = await dispatch(api.endpoints.getAuthPasskeys.initiate(undefined, { subscribe: false, forceRefetch: true })).unwrap();
  return passkeys.length > 0;
}

/**
 * Confirms it's the person with one of their passkeys (`POST /auth/reauth {passkey}`): null once
 * confirmed, else what to say (empty when the page cancelled the browser's prompt itself).
 */
export async function confirmWithPasskey(dispatch: Dispatch): Promise<string | null> {
  try {
    const options = await dispatch(api.endpoints.postAuthPasskeysReauthOptions.initiate(undefined, { track: false })).unwrap();
    const { challengeId, credential } = await getPasskey(options);
    await dispatch(api.endpoints.postAuthReauth.initiate({ body: { passkey: { challengeId, credential: { ...credential } } } }, { track: false })).unwrap();
    return null;
  } catch (e) {
    return isCeremonyCancelled(e) ? '' : passkeyErrorMessage(e, PASSKEY_TEXT.confirmCancelled, 'Could not confirm it’s you with a passkey');
  }
}

/** An assertion of one of the person's passkeys for a step-up ceremony. */
export type PasskeyProof = { challengeId: string; credential: Record<string, unknown> };

/**
 * A step-up assertion for a request that asks for the password itself (deleting the account):
 * the proof to send in its place, or what to say (empty when the prompt was cancelled).
 */
export async function passkeyProof(dispatch: Dispatch): Promise<{ proof: PasskeyProof } | { error: string }> {
  try {
    const options = await dispatch(api.endpoints.postAuthPasskeysReauthOptions.initiate(undefined, { track: false })).unwrap();
    const { challengeId, credential } = await getPasskey(options);
    return { proof: { challengeId, credential: { ...credential } } };
  } catch (e) {
    return { error: isCeremonyCancelled(e) ? '' : passkeyErrorMessage(e, PASSKEY_TEXT.confirmCancelled, 'Could not confirm it’s you with a passkey') };
  }
}
