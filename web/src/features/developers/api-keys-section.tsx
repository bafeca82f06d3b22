/**
 * Settings → Developers → API keys: the person's personal keys (name, prefix, scopes, dates,
 * uses), creating one (a name, scopes with what each allows, an expiry; a step-up first when the
 * server asks) whose key is shown once, and revoking one (confirmed; refused at once after).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, useDeleteKeysByIdMutation, useGetKeysQuery, useGetKeysScopesQuery, usePostKeysMutation, type KeyView } from '@/api/endpoints';
import { useAppDispatch } from '@/app/hooks';
import { FormError, FormField } from '@/components/form-field';
import { Modal } from '@/components/modal';
import { formatDate } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { ShownOnce } from './shown-once';

export const KEY_NAME_MAX = 80;
/** The expiries offered, in days (null: never). */
export const KEY_EXPIRIES: { days: number | null; label: string }[] = [
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
  { days: null, label: 'Never' },
];

/** The line under a key's name: created, expires, last used, uses. */
export function keyDetails(k: KeyView): string {
  const uses = k.usageCount === 1 ? '1 use' : `${k.usageCount} uses`;
  return [
    `created ${formatDate(k.createdAt)}`,
    k.expiresAt ? `expires ${formatDate(k.expiresAt)}` : 'Never expires',
    k.lastUsedAt ? `last used ${formatDate(k.lastUsedAt)}` : 'Never used',
    uses,
  ].join(' · ');
}

function KeyRow({ apiKey, onRevoke }: { apiKey: KeyView; onRevoke: (k: KeyView) => void }) {
  const expired = apiKey.expiresAt ? new Date(apiKey.expiresAt).getTime() < Date.now() : false;
  return (
    <li className="session-item dev-item" data-key-id={apiKey.id}>
      <div className="dev-item__body">
        <strong>{apiKey.name}</strong> <code className="dev-code">{apiKey.prefix}…</code>
        {expired ? <span className="badge-inline badge-inline--danger dev-badge">Expired</span> : null}
        <p className="muted small">{keyDetails(apiKey)}</p>
        <p className="small dev-item__scopes">
          <span className="visually-hidden">Scopes: </span>
          {apiKey.scopes.map((s) => (
            <code key={s} className="dev-chip">
              {s}
            </code>
          ))}
        </p>
      </div>
      <button type="button" className="button button--ghost button--small" aria-label={`Revoke ${apiKey.name}`} onClick={() => onRevoke(apiKey)}>
        Revoke
      </button>
    </li>
  );
}

function RevokeDialog({ apiKey, onClose }: { apiKey: KeyView; onClose: (revoked: boolean) => void }) {
  const dispatch = useAppDispatch();
  const [revoke, { isLoading: busy }] = useDeleteKeysByIdMutation();
  const [error, setError] = useState<string | null>(null);

  const go = async () => {
    setError(null);
    try {
      await revoke({ id: apiKey.id }).unwrap();
      dispatch(api.util.updateQueryData('getKeys', undefined, (draft) => void (draft.keys = draft.keys.filter((k) => k.id !== apiKey.id))));
      toast.success(`API key “${apiKey.name}” revoked.`);
      onClose(true);
    } catch (e) {
      setError(errorMessage(e, 'Could not revoke the key'));
    }
  };

  return (
    <Modal title="Revoke this API key?" labelledBy="revoke-key-title" onClose={() => onClose(false)}>
      <p>
        “{apiKey.name}” ({apiKey.prefix}…) stops working at once: every script or app using it will be refused. This cannot be undone.
      </p>
      <FormError message={error} />
      <div className="form-actions">
        <button type="button" className="button button--ghost" onClick={() => onClose(false)}>
          Cancel
        </button>
        <button type="button" className="button button--danger" disabled={busy} onClick={() => void go()}>
          {busy ? 'Revoking...' : 'Revoke key'}
        </button>
      </div>
    </Modal>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: string) => void }) {
  const dispatch = useAppDispatch();
  const { data: scopeData, error: scopesError, refetch } = useGetKeysScopesQuery();
  const [create, { isLoading: busy }] = usePostKeysMutation();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [expiry, setExpiry] = useState('90');
  const [error, setError] = useState<string | null>(null);

  const toggle = (scope: string, on: boolean) => setScopes((now) => (on ? [...now, scope] : now.filter((s) => s !== scope)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (scopes.length === 0) {
      setError('Choose at least one scope.');
      return;
    }
    try {
      const created = await create({ body: { name: name.trim(), scopes, expiresInDays: expiry === 'never' ? null : Number(expiry) } }).unwrap();
      const { key, ...view } = created;
      dispatch(api.util.updateQueryData('getKeys', undefined, (draft) => void draft.keys.unshift(view)));
      setName('');
      setScopes([]);
      onCreated(key);
    } catch (e) {
      setError(errorMessage(e, 'Could not create the key'));
    }
  };

  let scopeList;
  if (scopesError && !scopeData) {
    scopeList = (
      <p className="form-error" role="alert">
        {errorMessage(scopesError, 'Could not load the scopes')}{' '}
        <button type="button" className="link-button" onClick={() => void refetch()}>
          Try again
        </button>
      </p>
    );
  } else if (!scopeData) {
    scopeList = (
      <p className="muted small" role="status">
        Loading the scopes...
      </p>
    );
  } else {
    scopeList = scopeData.scopes.map((s) => (
      <label key={s.scope} className="check dev-check">
        <input type="checkbox" checked={scopes.includes(s.scope)} onChange={(e) => toggle(s.scope, e.target.checked)} />
        <span>
          <code className="dev-code">{s.scope}</code> <span className="muted small">{s.allows}</span>
          {s.adminOnly ? <span className="badge-inline dev-badge">Administrators</span> : null}
        </span>
      </label>
    ));
  }

  return (
    <form className="form dev-form" onSubmit={(event) => void submit(event)} aria-label="Create an API key" aria-busy={busy}>
      <h4 className="dev-form__title">Create a key</h4>
      <FormField
        id="new-key-name"
        label="Key name"
        hint="What it is for, such as “Publishing script”."
        required
        maxLength={KEY_NAME_MAX}
        autoComplete="off"
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <fieldset className="checks">
        <legend>Scopes</legend>
        <p className="muted small dev-legend-hint">The key can do only what its scopes allow. Choose the fewest it needs.</p>
        {scopeList}
      </fieldset>
      <div className="field">
        <label htmlFor="new-key-expiry">Expires after</label>
        <select id="new-key-expiry" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
          {KEY_EXPIRIES.map((x) => (
            <option key={x.label} value={x.days === null ? 'never' : String(x.days)}>
              {x.label}
            </option>
          ))}
        </select>
      </div>
      <FormError message={error} />
      <div className="form-actions form-actions--start">
        <button type="submit" className="button" disabled={busy || name.trim() === ''}>
          {busy ? 'Creating...' : 'Create key'}
        </button>
      </div>
    </form>
  );
}

/** API keys: the list, revoking, and creating one (its key shown once). */
export function ApiKeysSection() {
  const { data, error, refetch } = useGetKeysQuery();
  const [revoking, setRevoking] = useState<KeyView | null>(null);
  const [revoked, setRevoked] = useState(0);
  const [newKey, setNewKey] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const keys = data?.keys;

  // The revoked key's button is gone: focus goes to the list (or what says it is empty).
  useEffect(() => {
    if (revoked > 0) listRef.current?.focus();
  }, [revoked]);

  let list;
  if (error && !keys) {
    list = (
      <p className="form-error" role="alert">
        {errorMessage(error, 'Could not load your API keys')}{' '}
        <button type="button" className="link-button" onClick={() => void refetch()}>
          Try again
        </button>
      </p>
    );
  } else if (!keys) {
    list = (
      <p className="muted small" role="status">
        Loading your API keys...
      </p>
    );
  } else if (keys.length === 0) {
    list = <p className="muted small">No API keys yet.</p>;
  } else {
    list = (
      <ul className="session-list dev-list" aria-label="Your API keys">
        {keys.map((k) => (
          <KeyRow key={k.id} apiKey={k} onRevoke={setRevoking} />
        ))}
      </ul>
    );
  }

  return (
    <div>
      <p className="muted small">
        A personal API key lets your own scripts and apps use Pressroom as you, with only the scopes you give it. Send it as{' '}
        <code>Authorization: Bearer pr_live_…</code>.
      </p>
      {newKey ? (
        <ShownOnce
          id="new-api-key"
          label="Your new API key"
          value={newKey}
          onDone={() => {
            setNewKey(null);
            listRef.current?.focus();
          }}
        />
      ) : null}
      <div ref={listRef} tabIndex={-1} className="passkey-list-wrap">
        {list}
      </div>
      <CreateKeyForm onCreated={setNewKey} />
      {revoking ? (
        <RevokeDialog
          apiKey={revoking}
          onClose={(done) => {
            setRevoking(null);
            if (done) setRevoked((n) => n + 1);
          }}
        />
      ) : null}
    </div>
  );
}
