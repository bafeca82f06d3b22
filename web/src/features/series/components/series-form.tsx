/**
 * The fields of a series (title, description, address, cover), for creating one and for changing
 * one. The server's refusal ("This address is already taken by another series", ...) shows under
 * the fields.
 */
import { useState, type FormEvent } from 'react';
import { FormError, FormField } from '@/components/form-field';

export interface SeriesFields {
  title: string;
  description: string;
  slug: string;
  cover: string;
}

export const EMPTY_SERIES: SeriesFields = { title: '', description: '', slug: '', cover: '' };
export const SLUG_PATTERN = '[a-z0-9]+(-[a-z0-9]+)*';

/** What `onSubmit` resolves to: null when it went through, else the message to show. */
type Outcome = string | null;

export function SeriesForm({
  id,
  label,
  initial = EMPTY_SERIES,
  submitLabel,
  busyLabel,
  onSubmit,
  onCancel,
  resetOnSuccess,
}: {
  /** Prefix of the fields' ids (unique on the page). */
  id: string;
  /** The form's accessible name. */
  label: string;
  initial?: SeriesFields;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (fields: SeriesFields) => Promise<Outcome>;
  onCancel?: () => void;
  resetOnSuccess?: boolean;
}) {
  const [fields, setFields] = useState<SeriesFields>(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (key: keyof SeriesFields) => (value: string) => setFields((now) => ({ ...now, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setError(null);
    if (!fields.title.trim()) {
      setError('Title is required');
      return;
    }
    setBusy(true);
    const outcome = await onSubmit({
      title: fields.title.trim(),
      description: fields.description.trim(),
      slug: fields.slug.trim().toLowerCase(),
      cover: fields.cover.trim(),
    });
    setBusy(false);
    if (outcome) setError(outcome);
    else if (resetOnSuccess) setFields(EMPTY_SERIES);
  };

  return (
    <form className="form series-form" aria-label={label} aria-busy={busy} onSubmit={(event) => void submit(event)} noValidate>
      <FormField id={`${id}-title`} label="Title" required autoComplete="off" value={fields.title} onChange={(e) => set('title')(e.target.value)} />
      <div className="field">
        <label htmlFor={`${id}-description`}>Description</label>
        <textarea id={`${id}-description`} rows={3} value={fields.description} onChange={(e) => set('description')(e.target.value)} />
      </div>
      <FormField
        id={`${id}-slug`}
        label="Address (optional)"
        hint={
          initial.slug
            ? `Lowercase words with hyphens. Now /series/${initial.slug}; links to the old address stop working when you change it.`
            : 'Lowercase words with hyphens, as in the-long-walk. Made from the title when left empty.'
        }
        autoComplete="off"
        spellCheck={false}
        pattern={SLUG_PATTERN}
        value={fields.slug}
        onChange={(e) => set('slug')(e.target.value)}
      />
      <FormField
        id={`${id}-cover`}
        label="Cover picture (optional)"
        hint="A web address of a picture (https://…), or empty for none."
        type="url"
        autoComplete="off"
        value={fields.cover}
        onChange={(e) => set('cover')(e.target.value)}
      />
      <FormError message={error} />
      <div className="form-actions form-actions--start">
        <button type="submit" className="button" disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="button button--ghost" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
