/**
 * The server's Web Push API (`/api/push/...`) through the app's HTTP client, with the types
 * generated from the OpenAPI document. The components only see `pushApi`.
 */
import type {
  DeletePushSubscriptionsByIdApiResponse,
  DeviceView,
  GetPushPreferencesApiResponse,
  GetPushSubscriptionsApiResponse,
  GetPushVapidPublicKeyApiResponse,
  PostPushSubscriptionsApiArg,
  PostPushSubscriptionsApiResponse,
  PushPreferences as PushPreferencesSchema,
  PutPushPreferencesApiResponse,
} from '@/api/endpoints';
import { http } from '@/lib/http';

/** A device (a browser's push subscription) that gets the person's notifications. */
export type PushDevice = DeviceView;
/** Which events reach the person's devices (replies, likes, newPosts, admin, money, banners), and quiet hours. */
export type PushPreferences = PushPreferencesSchema;
/** What registers a device: the browser's `PushSubscription.toJSON()` and a label. */
export type NewPushDevice = PostPushSubscriptionsApiArg['body'];

export const PUSH_FALLBACK = {
  key: 'Could not reach the notification service',
  devices: 'Could not load your devices',
  add: 'Could not turn on notifications on this device',
  remove: 'Could not remove the device',
  preferences: 'Could not load your notification settings',
  save: 'Could not save your notification settings',
} as const;

export const pushApi = {
  vapidPublicKey: () => http.get<GetPushVapidPublicKeyApiResponse>('/push/vapid-public-key', PUSH_FALLBACK.key),
  devices: () => http.get<GetPushSubscriptionsApiResponse>('/push/subscriptions', PUSH_FALLBACK.devices),
  addDevice: (device: NewPushDevice) => http.post<PostPushSubscriptionsApiResponse>('/push/subscriptions', device, PUSH_FALLBACK.add),
  removeDevice: (id: string) => http.delete<DeletePushSubscriptionsByIdApiResponse>(`/push/subscriptions/${encodeURIComponent(id)}`, PUSH_FALLBACK.remove),
  preferences: () => http.get<GetPushPreferencesApiResponse>('/push/preferences', PUSH_FALLBACK.preferences),
  savePreferences: (preferences: PushPreferences) => http.put<PutPushPreferencesApiResponse>('/push/preferences', preferences, PUSH_FALLBACK.save),
};
