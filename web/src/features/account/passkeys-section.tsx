/**
 * The account's passkeys on the settings page: the list (name, what kind, synced or not, when
 * added and last used), adding one (a name, the server's challenge, the browser's prompt; a step-up
 * first when the server asks), renaming one in place, and removing one (confirmed, with a step-up
 * when asked). The browser's refusals are said in plain words, the server's refusals as it says them.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import {
  api,
  useDeleteAuthPasskeysByIdMutation,
  useGetAuthPasskeysQuery,
  usePatchAuthPasskeysByIdMutation,
  usePostAuthPasskeysRegisterOptionsMutation,
  usePostAuthPasskeysRegisterVerifyMutation,
  type PasskeyView,
} from '@/api/endpoints';
import { useAppDispatch } from '@/app/hooks';
import { FormError, FormField } from '@/components/form-field';
import { Modal } from '@/components/modal';
import { formatDate } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { browserSupportsWebAuthn, createPasskey, isCeremonyCancelled, lacksBuiltInPasskey, PASSKEY_TEXT, passkeyErrorMessage } from '@/lib/webauthn';

export const PASSKEY_NAME_MAX = 64;

/**
 * Where a passkey lives, in words: "Built-in" (a device's own, the one it was made on, which may
 * not be the one showing the list) or "Security key or phone".
 */
export function passkeyKind(kind: PasskeyView['kind']): string | null {
  if (kind === 'platform') return 'Built-in';
  if (kind === 'cross-platform') return 'Security key or phone';
  return null;
}

/** The line under a passkey's name: where it lives, when it was added and last used. */
export function passkeyDetails(p: PasskeyView): string {
  return [passkeyKind(p.kind), `added ${formatDate(p.createdAt)}`, p.lastUsedAt ? `last used ${formatDate(p.lastUsedAt)}` : 'Never used']
    .filter(Boolean)
    .join(' · ');
}

/** Refreshes the security activity list (when it is on the page) after a change. */
function useRefreshActivity() {
  const dispatch = useAppDispatch();
  return () => void dispatch(api.endpoints.getAuthSecurityLog.initiate(undefined, { subscribe: false, forceRefetch: true }));
}

function PasskeyRow({ passkey, onRemove }: { passkey: PasskeyView; onRemove: (p: PasskeyView) => void }) {
  const dispatch = useAppDispatch();
  const [rename, { isLoading: saving }] = usePatchAuthPasskeysByIdMutation();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | null>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  const refreshActivity = useRefreshActivity();

  // Back on "Rename" once the name form closes (saved or cancelled), not when the row first renders.
  useEffect(() => {
    if (!editing && returnFocus.current) {
      returnFocus.current = false;
      renameButton.current?.focus();
    }
  }, [editing]);

  const close = () => {
    returnFocus.current = true;
    setEditing(false);
    setError(null);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const wanted = name.trim();
    if (wanted === passkey.name) return close();
    try {
      const saved = await rename({ id: passkey.id, body: { name: wanted } }).unwrap();
      dispatch(api.util.updateQueryData('getAuthPasskeys', undefined, (draft) => void (draft.passkeys = draft.passkeys.map((p) => (p.id === saved.id ? saved : p)))));
      toast.success(`Passkey renamed to “${saved.name}”.`);
      refreshActivity();
      close();
    } catch (e) {
      setError(errorMessage(e, 'Could not rename the passkey'));
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      setName(passkey.name);
      close();
    }
  };

  if (editing) {
    return (
      <li className="session-item passkey-item" data-passkey-id={passkey.id}>
        <form className="passkey-rename" onSubmit={(event) => void save(event)} aria-label={`Rename ${passkey.name}`}>
          <FormField
            id={`passkey-name-${passkey.id}`}
            label="Passkey name"
            required
            maxLength={PASSKEY_NAME_MAX}
            autoFocus
            value={name}
            onChange={(e) => setName(e.target.value)}
            onKeyDown={onKeyDown}
          />
          <div className="form-actions">
            <button
              type="button"
              className="button button--ghost button--small"
              onClick={() => {
                setName(passkey.name);
                close();
              }}
            >
              Cancel
            </button>
            <button type="submit" className="button button--small" disabled={saving || name.trim() === ''}>
              {saving ? 'Saving...' : 'Save name'}
            </button>
          </div>
          <FormError message={error} />
        </form>
      </li>
    );
  }

  return (
    <li className="session-item passkey-item" data-passkey-id={passkey.id}>
      <div>
        <strong>{passkey.name}</strong>
        {passkey.backedUp ? <span className="badge-inline passkey-synced">Synced</span> : null}
        <p className="muted small">{passkeyDetails(passkey)}</p>
      </div>
      <div className="passkey-item__actions">
        <button
          ref={renameButton}
          type="button"
          className="button button--ghost button--small"
          aria-label={`Rename ${passkey.name}`}
          onClick={() => {
            setName(passkey.name);
            setEditing(true);
          }}
        >
          Rename
        </button>
        <button type="button" className="button button--ghost button--small" aria-label={`Remove ${passkey.name}`} onClick={() => onRemove(passkey)}>
          Remove
        </button>
      </div>
    </li>
  );
}

function RemoveDialog({ passkey, onClose }: { passkey: PasskeyView; onClose: (removed: boolean) => void }) {
  const dispatch = useAppDispatch();
  const [remove, { isLoading: busy }] = useDeleteAuthPasskeysByIdMutation();
  const [error, setError] = useState<string | null>(null);
  const refreshActivity = useRefreshActivity();

  const go = async () => {
    setError(null);
    try {
      await remove({ id: passkey.id }).unwrap();
      dispatch(api.util.updateQueryData('getAuthPasskeys', undefined, (draft) => void (draft.passkeys = draft.passkeys.filter((p) => p.id !== passkey.id))));
      toast.success(`Passkey “${passkey.name}” removed.`);
      refreshActivity();
      onClose(true);
    } catch (e) {
      setError(errorMessage(e, 'Could not remove the passkey'));
    }
  };

  return (
    <Modal title="Remove this passkey?" labelledBy="remove-passkey-title" onClose={() => onClose(false)}>
      <p>
        “{passkey.name}” will no longer sign you in to Pressroom. Delete it from your device or password manager too, so it is not offered
        any more.
      </p>
      <FormError message={error} />
      <div className="form-actions">
        <button type="button" className="button button--ghost" onClick={() => onClose(false)}>
          Cancel
        </button>
        <button type="button" className="button button--danger" disabled={busy} onClick={() => void go()}>
          {busy ? 'Removing...' : 'Remove passkey'}
        </button>
      </div>
    </Modal>
  );
}

function AddPasskeyForm() {
  const dispatch = useAppDispatch();
  const [getOptions] = usePostAuthPasskeysRegisterOptionsMutation();
  const [verify] = usePostAuthPasskeysRegisterVerifyMutation();
  const [name, setName] = useState('');
  // Asking the server (maybe after a step-up), waiting for the browser's prompt, saving.
  const [busy, setBusy] = useState<null | 'starting' | 'browser' | 'saving'>(null);
  const [error, setError] = useState<string | null>(null);
  // No built-in passkey here (said, not blocking): a phone or a security key still works.
  const [noBuiltIn, setNoBuiltIn] = useState(false);
  const refreshActivity = useRefreshActivity();

  useEffect(() => {
    let alive = true;
    void lacksBuiltInPasskey().then((lacks) => alive && setNoBuiltIn(lacks));
    return () => {
      alive = false;
    };
  }, []);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy('starting');
    try {
      const options = await getOptions().unwrap();
      setBusy('browser');
      const { challengeId, credential } = await createPasskey(options);
      setBusy('saving');
      const added = await verify({ body: { challengeId, name: name.trim(), credential: { ...credential } } }).unwrap();
      dispatch(api.util.updateQueryData('getAuthPasskeys', undefined, (draft) => void draft.passkeys.unshift(added)));
      toast.success(`Passkey “${added.name}” added. You can use it to sign in.`);
      setName('');
      refreshActivity();
    } catch (e) {
      if (!isCeremonyCancelled(e)) setError(passkeyErrorMessage(e, PASSKEY_TEXT.setupCancelled, 'Could not add the passkey'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <form className="form passkey-add" onSubmit={(event) => void add(event)} aria-busy={busy !== null}>
      <FormField
        id="new-passkey-name"
        label="Name for a new passkey"
        hint="So you can tell your passkeys apart, such as “MacBook” or “Phone”."
        required
        maxLength={PASSKEY_NAME_MAX}
        autoComplete="off"
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      {noBuiltIn ? (
        <p id="new-passkey-no-built-in" className="muted small">
          {PASSKEY_TEXT.noBuiltIn}
        </p>
      ) : null}
      <FormError message={error} />
      <p className="muted small passkey-signin__status" role="status">
        {busy === 'browser' ? 'Follow your browser’s prompt to create the passkey.' : busy === 'saving' ? 'Saving your passkey...' : ''}
      </p>
      <div className="form-actions form-actions--start">
        <button type="submit" className="button" disabled={busy !== null || name.trim() === ''} aria-describedby={noBuiltIn ? 'new-passkey-no-built-in' : undefined}>
          {busy ? 'Adding...' : 'Add a passkey'}
        </button>
      </div>
    </form>
  );
}

/**
 * Passkeys: the list, rename and remove, and (in a browser that can) adding one, with a note when
 * the device has no built-in passkey.
 */
export function PasskeysSection() {
  const [supported] = useState(() => browserSupportsWebAuthn());
  const { data, error, refetch } = useGetAuthPasskeysQuery();
  const [removing, setRemoving] = useState<PasskeyView | null>(null);
  const [removed, setRemoved] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);
  const passkeys = data?.passkeys;

  // The removed passkey's button is gone: focus goes to the list (or what says it is empty).
  useEffect(() => {
    if (removed > 0) listRef.current?.focus();
  }, [removed]);

  let list;
  if (error && !passkeys) {
    list = (
      <p className="form-error" role="alert">
        {errorMessage(error, 'Could not load your passkeys')}{' '}
        <button type="button" className="link-button" onClick={() => void refetch()}>
          Try again
        </button>
      </p>
    );
  } else if (!passkeys) {
    list = (
      <p className="muted small" role="status">
        Loading your passkeys...
      </p>
    );
  } else if (passkeys.length === 0) {
    list = <p className="muted small">No passkeys yet. Add one to sign in with your fingerprint, face or screen lock instead of your password.</p>;
  } else {
    list = (
      <ul className="session-list passkey-list" aria-label="Your passkeys">
        {passkeys.map((p) => (
          <PasskeyRow key={p.id} passkey={p} onRemove={setRemoving} />
        ))}
      </ul>
    );
  }

  return (
    <div>
      <p className="muted small">
        A passkey signs you in with your device’s fingerprint, face or screen lock, and cannot be phished or leaked like a password. It stays
        on your device or syncs through your password manager.
      </p>
      <div ref={listRef} tabIndex={-1} className="passkey-list-wrap">
        {list}
      </div>
      {supported ? <AddPasskeyForm /> : <p className="muted">{PASSKEY_TEXT.unsupported} You can still rename or remove your passkeys here.</p>}
      {removing ? (
        <RemoveDialog
          passkey={removing}
          onClose={(done) => {
            setRemoving(null);
            if (done) setRemoved((n) => n + 1);
          }}
        />
      ) : null}
    </div>
  );
}
