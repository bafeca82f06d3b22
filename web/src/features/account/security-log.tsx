/**
 * "Recent security activity" on the settings page: what happened to the account's sign-in and
 * security lately (passkeys added, used, refused or removed, two-factor sign-in turned on or off,
 * ...), newest first, as `GET /api/auth/security-log` gives it.
 */
import { useGetAuthSecurityLogQuery, type SecurityEvent } from '@/api/endpoints';
import { formatDateTime } from '@/lib/format';
import { errorMessage } from '@/lib/http';

const ACTIONS: Record<string, string> = {
  'passkey.add': 'Passkey added',
  'passkey.sign_in': 'Signed in with a passkey',
  'passkey.reauth': 'Confirmed it’s you with a passkey',
  'passkey.rename': 'Passkey renamed',
  'passkey.remove': 'Passkey removed',
  'passkey.refused': 'Passkey refused',
  'two_factor.enable': 'Two-factor sign-in turned on',
  'two_factor.disable': 'Two-factor sign-in turned off',
  'two_factor.recovery_codes': 'New recovery codes',
  'account.deletion_schedule': 'Account deletion requested',
  'account.deletion_cancel': 'Account deletion cancelled',
  'account.export_request': 'Copy of your data requested',
  'account.export_download': 'Copy of your data downloaded',
  'bank_details.create': 'Bank details added',
  'bank_details.update': 'Bank details changed',
  'bank_details.delete': 'Bank details removed',
  'api_key.create': 'API key created',
  'api_key.revoke': 'API key revoked',
};

/** An event's action in words ("passkey.sign_in" → "Signed in with a passkey"; unknown ones spelled out). */
export function securityActionLabel(action: string): string {
  const known = ACTIONS[action];
  if (known) return known;
  const words = action.replace(/[._]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : action;
}

/** Whether an event is one to look at twice (a refusal). */
function isWarning(event: SecurityEvent): boolean {
  return event.action.endsWith('.refused');
}

export function SecurityLog() {
  const { data, error, refetch } = useGetAuthSecurityLogQuery();
  const events = data?.events;
  if (error && !events) {
    return (
      <p className="form-error" role="alert">
        {errorMessage(error, 'Could not load your security activity')}{' '}
        <button type="button" className="link-button" onClick={() => void refetch()}>
          Try again
        </button>
      </p>
    );
  }
  if (!events) {
    return (
      <p className="muted small" role="status">
        Loading your security activity...
      </p>
    );
  }
  if (events.length === 0) return <p className="muted small">Nothing yet. Passkeys and two-factor changes will be listed here.</p>;
  return (
    <ul className="activity-list security-log" aria-label="Recent security activity">
      {events.map((event) => (
        <li key={event.id} className="activity-list__item security-log__item">
          <span className={isWarning(event) ? 'security-log__what security-log__what--warning' : 'security-log__what'}>{securityActionLabel(event.action)}</span>
          <span className="muted small">{event.detail ?? ''}</span>
          <time className="muted small" dateTime={event.at}>
            {formatDateTime(event.at)}
          </time>
        </li>
      ))}
    </ul>
  );
}
