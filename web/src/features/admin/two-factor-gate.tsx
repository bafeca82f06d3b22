/**
 * The gate in front of the admin dashboard: while the administrators' setting "require two-factor
 * sign-in for administrators" is on, an administrator without it gets the setup step instead of
 * the dashboard (the server refuses their administrator calls with 403 `two_factor_required`).
 */
import type { ReactNode } from 'react';
import { useGetAdminSettingsQuery } from '@/api/endpoints';
import { errorCode } from '@/lib/http';
import { TwoFactorSection } from '@/features/account';

export const TWO_FACTOR_REQUIRED = 'two_factor_required';

type GateState = 'checking' | 'open' | 'required';

export function AdminTwoFactorGate({ children }: { children: ReactNode }) {
  // `GET /api/admin/settings`: refused with `two_factor_required` while the requirement holds.
  const { data, error, refetch } = useGetAdminSettingsQuery();
  // Only the requirement closes the dashboard; any other failure is the sections' to show.
  const state: GateState = !data && !error ? 'checking' : !data && errorCode(error) === TWO_FACTOR_REQUIRED ? 'required' : 'open';
  const check = refetch;

  if (state === 'checking') return <p className="muted small" aria-busy="true">Opening the dashboard...</p>;
  if (state === 'open') return <>{children}</>;
  return (
    <section className="dashboard-block" aria-labelledby="admin-2fa-title" data-testid="admin-two-factor-gate">
      <h2 id="admin-2fa-title">Set up two-factor sign-in first</h2>
      <p>
        Administrators on this site must use two-factor sign-in: a passkey, or a code from an authenticator app as well as their password. Sign out and back in
        with a passkey, or set the app up below; the dashboard opens once it is on.
      </p>
      <TwoFactorSection />
      <p>
        <button type="button" className="button" onClick={() => void check()}>
          Open the dashboard
        </button>
      </p>
    </section>
  );
}
