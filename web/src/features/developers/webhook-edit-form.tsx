/**
 * Editing a webhook endpoint in place (Settings → Developers): its URL, events and description,
 * filled in with what it has. Only what changed is sent (`PATCH /api/webhooks/{id}`, which checks
 * them as adding does); nothing changed closes the form. A refusal is shown as the server words
 * it and what was typed stays; Cancel or Escape closes it unchanged. Whether the endpoint is
 * site-wide cannot change: a site-wide one of an administrator is offered the administrators'
 * events, as when adding one.
 */
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { usePatchWebhooksByIdMutation, type EndpointView, type PatchWebhooksByIdApiArg } from '@/api/endpoints';
import { useAppSelector } from '@/app/hooks';
import { FormError, FormField } from '@/components/form-field';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { EventTypeChecks } from './event-type-checks';

type Changes = PatchWebhooksByIdApiArg['body'];

/** What differs from `endpoint` in what was typed, trimmed as the server keeps it. */
export function endpointChanges(endpoint: EndpointView, url: string, events: string[], description: string): Changes {
  const changes: Changes = {};
  if (url.trim() !== endpoint.url) changes.url = url.trim();
  const sameEvents = events.length === endpoint.events.length && events.every((e) => endpoint.events.includes(e));
  if (!sameEvents) changes.events = events;
  // An empty description clears it (`null` would leave it as it is).
  if (description.trim() !== endpoint.description) changes.description = description.trim();
  return changes;
}

export function WebhookEditForm({ endpoint, onSaved, onCancel }: { endpoint: EndpointView; onSaved: (saved: EndpointView) => void; onCancel: () => void }) {
  const [patch, { isLoading: busy }] = usePatchWebhooksByIdMutation();
  const isAdmin = useAppSelector((state) => state.auth.role === 'admin');
  const [url, setUrl] = useState(endpoint.url);
  const [events, setEvents] = useState(endpoint.events);
  const [description, setDescription] = useState(endpoint.description);
  const [error, setError] = useState<string | null>(null);
  const titleId = `webhook-edit-title-${endpoint.id}`;


  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (events.length === 0) {
      setError('Choose at least one event.');
      return;
    }
    const changes = endpointChanges(endpoint, url, events, description);
    if (Object.keys(changes).length === 0) return onCancel();
    try {
      const saved = await patch({ id: endpoint.id, body: changes }).unwrap();
      toast.success('Endpoint updated.');
      onSaved(saved);
    } catch (e) {
      setError(errorMessage(e, 'Could not save the endpoint'));
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onCancel();
    }
  };

  return (
    // Escape anywhere in the form cancels it (its fields and buttons are the interactive part).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <form className="form dev-form" onSubmit={(event) => void submit(event)} onKeyDown={onKeyDown} aria-labelledby={titleId} aria-busy={busy}>
      <h4 id={titleId} className="dev-form__title">
        Edit the endpoint<span className="visually-hidden"> {endpoint.url}</span>
      </h4>
      <FormField
        id={`webhook-url-${endpoint.id}`}
        label="Endpoint URL"
        hint="An https address on the public internet that answers with a 2xx status."
        type="url"
        inputMode="url"
        required
        autoFocus
        autoComplete="off"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
      />
      <EventTypeChecks chosen={events} onChange={setEvents} adminEvents={isAdmin && endpoint.site} kept={endpoint.events} />
      <FormField
        id={`webhook-description-${endpoint.id}`}
        label="Description (optional)"
        maxLength={200}
        autoComplete="off"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
      <FormError message={error} />
      <div className="form-actions form-actions--start">
        <button type="submit" className="button button--small" disabled={busy || url.trim() === ''}>
          {busy ? 'Saving...' : 'Save'}
        </button>
        <button type="button" className="button button--ghost button--small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
