/**
 * Settings → Developers → Webhooks: the person's endpoints (see webhook-item.tsx) and adding one
 * (an https URL, the events it wants, a description), whose signing secret is shown once. An
 * administrator can make the new endpoint site-wide: it hears every writer's events, and only a
 * site-wide endpoint may ask for the administrators' events (`member.deleted`); the server
 * refuses them otherwise.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, useGetWebhooksEventTypesQuery, useGetWebhooksQuery, usePostWebhooksMutation } from '@/api/endpoints';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { FormError, FormField } from '@/components/form-field';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { EventTypeChecks } from './event-type-checks';
import { ShownOnce } from './shown-once';
import { WebhookItem } from './webhook-item';

function AddEndpointForm({ onAdded }: { onAdded: (secret: string) => void }) {
  const dispatch = useAppDispatch();
  const { data: typeData } = useGetWebhooksEventTypesQuery();
  const [add, { isLoading: busy }] = usePostWebhooksMutation();
  const isAdmin = useAppSelector((state) => state.auth.role === 'admin');
  const [site, setSite] = useState(false);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);

  const siteWide = isAdmin && site;
  // The administrators' events are a site-wide endpoint's only: unticking drops any chosen.
  const chooseSite = (on: boolean) => {
    setSite(on);
    if (!on) setEvents((now) => now.filter((e) => !typeData?.eventTypes.some((t) => t.adminOnly && t.name === e)));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (events.length === 0) {
      setError('Choose at least one event.');
      return;
    }
    try {
      const created = await add({ body: { url: url.trim(), events, description: description.trim() || null, ...(siteWide ? { site: true } : {}) } }).unwrap();
      const { secret, ...view } = created;
      dispatch(api.util.updateQueryData('getWebhooks', undefined, (draft) => void draft.webhooks.unshift(view)));
      toast.success('Endpoint added.');
      setUrl('');
      setEvents([]);
      setDescription('');
      setSite(false);
      onAdded(secret);
    } catch (e) {
      setError(errorMessage(e, 'Could not add the endpoint'));
    }
  };

  return (
    <form className="form dev-form" onSubmit={(event) => void submit(event)} aria-label="Add a webhook endpoint" aria-busy={busy}>
      <h4 className="dev-form__title">Add an endpoint</h4>
      <FormField
        id="new-webhook-url"
        label="Endpoint URL"
        hint="An https address on the public internet that answers with a 2xx status."
        type="url"
        inputMode="url"
        required
        placeholder="https://example.com/pressroom-hook"
        autoComplete="off"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
      />
      {isAdmin ? (
        <div className="field">
          <label className="check dev-check">
            <input type="checkbox" checked={site} aria-describedby="new-webhook-site-hint" onChange={(e) => chooseSite(e.target.checked)} />
            <span>Site-wide: every writer’s events (administrators)</span>
          </label>
          <small id="new-webhook-site-hint" className="muted">
            It hears the events you choose for every writer on the site, and can also hear <code>member.deleted</code>. Unticked, it hears only events
            about your own posts, followers and subscribers.
          </small>
        </div>
      ) : null}
      <EventTypeChecks chosen={events} onChange={setEvents} adminEvents={siteWide} />
      <FormField id="new-webhook-description" label="Description (optional)" maxLength={200} autoComplete="off" value={description} onChange={(e) => setDescription(e.target.value)} />
      <FormError message={error} />
      <div className="form-actions form-actions--start">
        <button type="submit" className="button" disabled={busy || url.trim() === ''}>
          {busy ? 'Adding...' : 'Add endpoint'}
        </button>
      </div>
    </form>
  );
}

/** Webhooks: the endpoints, each with its actions and delivery log, and adding one. */
export function WebhooksSection() {
  const { data, error, refetch } = useGetWebhooksQuery();
  const [secret, setSecret] = useState<string | null>(null);
  const [removed, setRemoved] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);
  const webhooks = data?.webhooks;

  useEffect(() => {
    if (removed > 0) listRef.current?.focus();
  }, [removed]);

  let list;
  if (error && !webhooks) {
    list = (
      <p className="form-error" role="alert">
        {errorMessage(error, 'Could not load your webhook endpoints')}{' '}
        <button type="button" className="link-button" onClick={() => void refetch()}>
          Try again
        </button>
      </p>
    );
  } else if (!webhooks) {
    list = (
      <p className="muted small" role="status">
        Loading your webhook endpoints...
      </p>
    );
  } else if (webhooks.length === 0) {
    list = <p className="muted small">No endpoints yet.</p>;
  } else {
    list = (
      <ul className="dev-endpoints" aria-label="Your webhook endpoints">
        {webhooks.map((w) => (
          <WebhookItem key={w.id} endpoint={w} onRemoved={() => setRemoved((n) => n + 1)} />
        ))}
      </ul>
    );
  }

  return (
    <div>
      <p className="muted small">
        Pressroom sends an HTTPS POST to your endpoint when something happens, signed with the endpoint’s secret (Standard Webhooks:{' '}
        <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code> headers). Failed deliveries are tried again.
      </p>
      {secret ? (
        <ShownOnce
          id="new-webhook-secret"
          label="Your endpoint’s signing secret"
          value={secret}
          onDone={() => {
            setSecret(null);
            listRef.current?.focus();
          }}
        />
      ) : null}
      <div ref={listRef} tabIndex={-1} className="passkey-list-wrap">
        {list}
      </div>
      <AddEndpointForm onAdded={setSecret} />
    </div>
  );
}
