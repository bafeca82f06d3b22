/**
 * How a follower hears of an author's new posts (`PUT /api/follow/alerts/{authorId}`): `instant`
 * (a notice and an email at once, the default), `digest` (a notice now, the email in the daily
 * digest) or `off` (neither).
 */
import type { GetFollowStatusByUserIdApiResponse, PutFollowAlertsByAuthorIdApiResponse } from '@/api/endpoints';
import { errorMessage, http } from '@/lib/http';

export type AlertMode = 'instant' | 'digest' | 'off';

export const ALERT_MODES: { mode: AlertMode; label: string; hint: string }[] = [
  { mode: 'instant', label: 'All new posts', hint: 'A notification and an email at once' },
  { mode: 'digest', label: 'Daily digest', hint: 'A notification now, the email in the daily digest' },
  { mode: 'off', label: 'Off', hint: 'No notification, no email' },
];

export const ALERTS_FALLBACK = 'Failed to change alerts';

export function isAlertMode(value: unknown): value is AlertMode {
  return value === 'instant' || value === 'digest' || value === 'off';
}

export async function fetchAlerts(authorId: string): Promise<AlertMode | null> {
  const r = await http.get<GetFollowStatusByUserIdApiResponse>(`/follow/status/${encodeURIComponent(authorId)}`, 'Failed to fetch alerts');
  return isAlertMode(r?.alerts) ? r.alerts : null;
}

/** Saves a mode; resolves to the saved mode or rejects with the server's message. */
export async function saveAlerts(authorId: string, mode: AlertMode): Promise<AlertMode> {
  try {
    const r = await http.put<PutFollowAlertsByAuthorIdApiResponse>(`/follow/alerts/${encodeURIComponent(authorId)}`, { mode }, ALERTS_FALLBACK);
    return isAlertMode(r?.alerts) ? r.alerts : mode;
  } catch (e) {
    throw new Error(errorMessage(e, ALERTS_FALLBACK));
  }
}
