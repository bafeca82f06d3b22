import { useEffect, useState, type FormEvent } from 'react';
import { FormError, FormStatus } from '@/components/form-field';
import { errorMessage } from '@/lib/http';
import { PUSH_FALLBACK, pushApi, type PushPreferences } from '../push-api';

type PushKind = Exclude<keyof PushPreferences, 'quietHours'>;

/** The kinds of notifications, in the order the form shows them, with what each covers. */
export const PUSH_KINDS: { key: PushKind; label: string }[] = [
  { key: 'replies', label: 'Comments on my posts and replies to my comments' },
  { key: 'likes', label: 'Likes on my posts (at most one notification per post an hour)' },
  { key: 'newPosts', label: 'New posts from authors I follow with instant alerts' },
  { key: 'admin', label: 'Notices and replies from administrators' },
  { key: 'money', label: 'Subscriptions, payouts and tips' },
  { key: 'banners', label: 'Urgent announcements' },
];

export const PREFERENCES_SAVED = 'Notification settings saved.';

/** The browser's time zone ("Europe/Paris"), or UTC when it does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every time zone the browser knows, with `current` among them. */
function timeZones(current: string): string[] {
  let zones: string[] = [];
  try {
    zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  } catch {
    zones = [];
  }
  return Array.from(new Set([...zones, 'UTC', current])).sort();
}

/**
 * The server's preferences as the form starts from them: quiet hours that are off (or have no
 * zone, or the server's default UTC) take the browser's time zone, so turning them on needs no
 * search through the list.
 */
export function formValues(preferences: PushPreferences): PushPreferences {
  const quiet = preferences.quietHours;
  const keepZone = quiet.timeZone && (quiet.enabled || quiet.timeZone !== 'UTC');
  return { ...preferences, quietHours: { ...quiet, timeZone: keepZone ? quiet.timeZone : browserTimeZone() } };
}

/** Which kinds of notifications reach the person's devices, and quiet hours; saved together. */
export function PushPreferencesForm() {
  const [form, setForm] = useState<PushPreferences | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    let live = true;
    setLoadError(null);
    pushApi.preferences().then(
      (answer) => live && setForm(formValues(answer.preferences)),
      (e: unknown) => live && setLoadError(errorMessage(e, PUSH_FALLBACK.preferences)),
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  if (!form) {
    return loadError ? (
      <p className="form-error" role="alert">
        {loadError}{' '}
        <button type="button" className="link-button" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
      </p>
    ) : (
      <p className="muted small" role="status">
        Loading your notification settings...
      </p>
    );
  }

  const quiet = form.quietHours;
  const setQuiet = (changes: Partial<PushPreferences['quietHours']>) => setForm({ ...form, quietHours: { ...quiet, ...changes } });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setOutcome(null);
    try {
      const answer = await pushApi.savePreferences(form);
      setForm(formValues(answer.preferences));
      setOutcome({ ok: true, text: PREFERENCES_SAVED });
    } catch (e) {
      // What was chosen stays in the form, to try again.
      setOutcome({ ok: false, text: errorMessage(e, PUSH_FALLBACK.save) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="form push-preferences" aria-label="Which notifications to send" onSubmit={(e) => void submit(e)}>
      <fieldset className="checks">
        <legend>Notify me about</legend>
        {PUSH_KINDS.map(({ key, label }) => (
          <label key={key} className="check">
            <input type="checkbox" name={key} checked={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.checked })} /> {label}
          </label>
        ))}
      </fieldset>
      <fieldset className="checks push-quiet">
        <legend>Quiet hours</legend>
        <label className="check">
          <input type="checkbox" name="quietHours" checked={quiet.enabled} onChange={(e) => setQuiet({ enabled: e.target.checked })} /> Send no push notifications
          during quiet hours
        </label>
        <div className="push-quiet__times">
          <div className="field">
            <label htmlFor="push-quiet-start">From</label>
            <input id="push-quiet-start" type="time" required={quiet.enabled} disabled={!quiet.enabled} value={quiet.start} onChange={(e) => setQuiet({ start: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor="push-quiet-end">Until</label>
            <input id="push-quiet-end" type="time" required={quiet.enabled} disabled={!quiet.enabled} value={quiet.end} onChange={(e) => setQuiet({ end: e.target.value })} />
          </div>
          <div className="field push-quiet__zone">
            <label htmlFor="push-quiet-zone">Time zone</label>
            <select id="push-quiet-zone" disabled={!quiet.enabled} value={quiet.timeZone} onChange={(e) => setQuiet({ timeZone: e.target.value })}>
              {timeZones(quiet.timeZone).map((zone) => (
                <option key={zone} value={zone}>
                  {zone.replace(/_/g, ' ')}
                </option>
              ))}
            </select>
          </div>
        </div>
      </fieldset>
      {outcome?.ok ? <FormStatus message={outcome.text} /> : <FormError message={outcome?.text} />}
      <div className="form-actions form-actions--start">
        <button type="submit" className="button" disabled={saving}>
          {saving ? 'Saving...' : 'Save notification settings'}
        </button>
      </div>
    </form>
  );
}
