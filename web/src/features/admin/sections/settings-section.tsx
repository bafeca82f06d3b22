/**
 * The dashboard's settings: "Require two-factor sign-in for administrators". Turning it on needs
 * two-factor sign-in on one's own account (the server answers 409 otherwise, shown here).
 */
import { useEffect, useState } from 'react';
import { errorMessage, http } from '@/lib/http';
import { fetchAdminSettings, type AdminSettings } from '../two-factor-gate';

export function SettingsSection() {
  const [settings, setSettings] = useState<AdminSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let alive = true;
    fetchAdminSettings()
      .then((r) => alive && setSettings(r.settings))
      .catch((e) => alive && setError(errorMessage(e, 'Could not load the settings')));
    return () => {
      alive = false;
    };
  }, []);

  const toggle = async (on: boolean) => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const r = await http.patch<{ message: string; settings: AdminSettings }>('/admin/settings', { requireAdminTwoFactor: on }, 'Could not save the setting');
      setSettings(r.settings);
      setDone(r.message);
    } catch (e) {
      setError(errorMessage(e, 'Could not save the setting'));
    } finally {
      setBusy(false);
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
