/**
 * "Use a passkey instead" on the settings forms whose own request asks for the password (turning
 * two-factor sign-in off, new recovery codes, changing the password): offered when the browser can
 * use a passkey and the person has one (the list Settings → Security shows, one request shared
 * through RTK Query's cache). Chosen, the form hides the password, runs a step-up ceremony when it
 * is sent (`passkeyProof`, `POST /auth/passkeys/reauth/options`) and sends `{passkey}` in its place.
 */
import { useState } from 'react';
import { useGetAuthPasskeysQuery, type PasskeyAssertion } from '@/api/endpoints';
import { useAppDispatch } from '@/app/hooks';
import { errorMessage } from '@/lib/http';
import { browserSupportsWebAuthn, PASSKEY_TEXT } from '@/lib/webauthn';
import { loadPasskeyStepUp } from '@/features/auth';

/** The assertion to send in place of the password, or what to say (empty: nothing to say). */
export type PasskeyConfirmation = { proof: PasskeyAssertion } | { error: string };

export interface PasskeyInstead {
  /** The browser can use a passkey and the person has one. */
  offered: boolean;
  /** The person chose the passkey (only while it is offered). */
  using: boolean;
  choose: (using: boolean) => void;
  /** The browser's prompt is up (or its challenge is being asked for). */
  prompting: boolean;
  /** Runs the ceremony: an assertion of one of the person's passkeys, or what to say. */
  prove: () => Promise<PasskeyConfirmation>;
}

/** `skip`: not offered (and the list not read) while the form has no use for it. */
export function usePasskeyInstead({ skip = false }: { skip?: boolean } = {}): PasskeyInstead {
  const dispatch = useAppDispatch();
  const [supported] = useState(() => browserSupportsWebAuthn());
  const { data } = useGetAuthPasskeysQuery(undefined, { skip: skip || !supported });
  const offered = supported && !skip && (data?.passkeys.length ?? 0) > 0;
  const [chosen, setChosen] = useState(false);
  const [prompting, setPrompting] = useState(false);

  const prove = async (): Promise<PasskeyConfirmation> => {
    setPrompting(true);
    try {
      const { passkeyProof } = await loadPasskeyStepUp();
      return await passkeyProof(dispatch);
    } catch (e) {
      return { error: errorMessage(e, 'Could not confirm it’s you with a passkey') };
    } finally {
      setPrompting(false);
    }
  };

  return { offered, using: offered && chosen, choose: setChosen, prompting, prove };
}

/**
 * The switch between the password and the passkey: one button whose words change, so focus stays
 * on it when it is used.
 */
export function PasskeyInsteadToggle({ passkey, disabled }: { passkey: PasskeyInstead; disabled?: boolean }) {
  if (!passkey.offered) return null;
  return (
    <p className="form-aside">
      <button type="button" className="link-button" disabled={disabled} onClick={() => passkey.choose(!passkey.using)}>
        {passkey.using ? 'Use your password instead' : 'Use a passkey instead'}
      </button>
    </p>
  );
}

/** Says to follow the browser's prompt while it is up (a live region, there while a passkey is offered). */
export function PasskeyPromptStatus({ passkey }: { passkey: PasskeyInstead }) {
  if (!passkey.offered) return null;
  return (
    <p className="muted small passkey-signin__status" role="status">
      {passkey.prompting ? PASSKEY_TEXT.confirmPrompt : ''}
    </p>
  );
}
