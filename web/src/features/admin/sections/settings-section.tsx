/**
 * The dashboard's settings: "Require two-factor sign-in for administrators". Turning it on needs
 * two-factor sign-in on one's own account (the server answers 409 otherwise, shown here).
 */
import { useState } from 'react';
import { api, useGetAdminSettingsQuery, usePatchAdminSettingsMutation } from '@/api/endpoints';
import { useAppDispatch } from '@/app/hooks';
import { errorMessage } from '@/lib/http';

export function SettingsSection() {
  const dispatch = useAppDispatch();
  const { data, error: loadError } = useGetAdminSettingsQuery();
  const [save, { isLoading: busy }] = usePatchAdminSettingsMutation();
  const settings = data?.settings ?? null;
  const [saveError, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const error = saveError ?? (loadError ? errorMessage(loadError, 'Could not load the settings') : null);

  const toggle = async (on: boolean) => {
    setError(null);
    setDone(null);
    try {
      const r = await save({ body: { requireAdminTwoFactor: on } }).unwrap();
      dispatch(api.util.updateQueryData('getAdminSettings', undefined, (draft) => void (draft.settings = r.settings)));
      setDone(r.message);
    } catch (e) {
      setError(errorMessage(e, 'Could not save the setting'));
    }
  };

  return (
    <section className="dashboard-block" aria-labelledby="security-settings-title">
      <h3 id="security-settings-title">Security</h3>
      {settings ? (
        <label className="checkbox">
          <input type="checkbox" checked={settings.requireAdminTwoFactor} disabled={busy} onChange={(e) => void toggle(e.target.checked)} />
          <span>Require two-factor sign-in for administrators</span>
        </label>
      ) : error ? null : (
        <p className="muted small">Loading...</p>
      )}
      <p className="muted small">
        When on, an administrator without two-factor sign-in is asked to set it up before the dashboard opens. Turn it on for your own account first. Changes are
        recorded in the audit log.
      </p>
      {done ? (
        <p className="muted small" role="status">
          {done}
        </p>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
