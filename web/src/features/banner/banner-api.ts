import type { GetBannerNotificationDismissedByIdApiResponse, GetBannerNotificationGetNotificationApiResponse } from '@/api/endpoints';
import { http } from '@/lib/http';
import type { BannerNotification } from '@/types/entities';

export const BANNER_FALLBACK = {
  fetch: 'Failed to fetch banner notifications',
  dismiss: 'Failed to dismiss notification',
  status: 'Failed to fetch status',
} as const;

export const bannerApi = {
  list: async (): Promise<BannerNotification[]> => {
    const r = await http.get<GetBannerNotificationGetNotificationApiResponse>(
      '/bannerNotification/get-Notification',
      BANNER_FALLBACK.fetch,
    );
    if (Array.isArray(r)) return r;
    return Array.isArray(r?.notifications) ? r.notifications : [];
  },
  dismissed: async (id: string): Promise<boolean> => {
    const r = await http.get<GetBannerNotificationDismissedByIdApiResponse>(`/bannerNotification/dismissed/${encodeURIComponent(id)}`, BANNER_FALLBACK.status);
    return Boolean(r?.dismissed);
  },
  dismiss: (id: string) => http.patch(`/bannerNotification/dismiss/${encodeURIComponent(id)}`, {}, BANNER_FALLBACK.dismiss),
};
