/**
 * The "Events" checkboxes of a webhook endpoint's form (adding one, editing one): the event types
 * the server lists, the administrators' ones (`member.deleted`) only for a site-wide endpoint of
 * an administrator, the server refusing them otherwise. An event the endpoint already asks for
 * that the list does not offer it (`kept`) is shown too, so it can be seen and unticked.
 */
import { useGetWebhooksEventTypesQuery } from '@/api/endpoints';
import { errorMessage } from '@/lib/http';

export function EventTypeChecks({
  chosen,
  onChange,
  adminEvents,
  kept = [],
}: {
  chosen: string[];
  onChange: (events: string[]) => void;
  /** A site-wide endpoint of an administrator: it may hear the administrators' events. */
  adminEvents: boolean;
  kept?: string[];
}) {
  const { data, error, refetch } = useGetWebhooksEventTypesQuery();
  const onToggle = (name: string, on: boolean) => onChange(on ? [...chosen, name] : chosen.filter((e) => e !== name));

  let list;
  if (error && !data) {
    list = (
      <p className="form-error" role="alert">
        {errorMessage(error, 'Could not load the event types')}{' '}
        <button type="button" className="link-button" onClick={() => void refetch()}>
          Try again
        </button>
      </p>
    );
  } else if (!data) {
    list = (
      <p className="muted small" role="status">
        Loading the event types...
      </p>
    );
  } else {
    const offered = data.eventTypes.filter((t) => !t.adminOnly || adminEvents);
    const unlisted = kept.filter((name) => !offered.some((t) => t.name === name));
    list = (
      <>
        {offered.map((t) => (
          <label key={t.name} className="check dev-check">
            <input type="checkbox" checked={chosen.includes(t.name)} onChange={(e) => onToggle(t.name, e.target.checked)} />
            <span>
              <code className="dev-code">{t.name}</code> <span className="muted small">{t.about}</span>
              {t.adminOnly ? <span className="badge-inline dev-badge">Administrators</span> : null}
            </span>
          </label>
        ))}
        {unlisted.map((name) => (
          <label key={name} className="check dev-check">
            <input type="checkbox" checked={chosen.includes(name)} onChange={(e) => onToggle(name, e.target.checked)} />
            <span>
              <code className="dev-code">{name}</code>: no longer offered to this endpoint; untick it to stop asking for it.
            </span>
          </label>
        ))}
      </>
    );
  }

  return (
    <fieldset className="checks">
      <legend>Events</legend>
      {list}
    </fieldset>
  );
}
