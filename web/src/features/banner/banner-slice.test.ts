import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { socketEvents } from '@/features/socket';
import type { BannerNotification } from '@/types/entities';
import {
  bannerExpired,
  bannerReducer,
  bannerSynced,
  dismissBanner,
  fetchBanners,
  initialBannerState,
  isBannerVisible,
  readBannerMirror,
} from './banner-slice';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const banner = (over: Partial<BannerNotification> = {}): BannerNotification => ({
  _id: 'b1',
  title: 'Maintenance',
  message: 'Back soon',
  region: 'global',
  isActive: true,
  expiresAt: '2026-01-01T13:00:00Z',
  sticky: false,
  urgent: false,
  dismissedBy: [],
  timestamp: '2026-01-01T00:00:00Z',
  createdAt: '2026-01-01T00:00:00Z',
  ...over,
});
const viewer = { userId: 'u1', regions: ['India'] };

describe('banner visibility', () => {
  it('shows an active, unexpired, global banner not dismissed by the user', () => {
    expect(isBannerVisible(banner(), viewer, [], NOW)).toBe(true);
  });
  it('hides an inactive banner', () => {
    expect(isBannerVisible(banner({ isActive: false }), viewer, [], NOW)).toBe(false);
  });
  it('hides a non-sticky banner whose expiresAt passed, but not a sticky one', () => {
    expect(isBannerVisible(banner({ expiresAt: '2026-01-01T11:00:00Z' }), viewer, [], NOW)).toBe(false);
    expect(isBannerVisible(banner({ expiresAt: '2026-01-01T11:00:00Z', sticky: true }), viewer, [], NOW)).toBe(true);
  });
  it("shows a regional banner only in the user's region", () => {
    expect(isBannerVisible(banner({ region: 'india' }), viewer, [], NOW)).toBe(true);
    expect(isBannerVisible(banner({ region: 'Brazil' }), viewer, [], NOW)).toBe(false);
  });
  it('hides a banner the user dismissed (locally or on the server)', () => {
    expect(isBannerVisible(banner(), viewer, ['b1'], NOW)).toBe(false);
    expect(isBannerVisible(banner({ dismissedBy: ['u1'] }), viewer, [], NOW)).toBe(false);
    expect(isBannerVisible(banner({ dismissedBy: ['u2'] }), viewer, [], NOW)).toBe(true);
  });
});

describe('banner state', () => {
  it('hides on realtime dismissal, deactivation and delete-all', () => {
    let state = bannerReducer(initialBannerState(), socketEvents.broadcastReceived(banner()));
    state = bannerReducer(state, socketEvents.broadcastReceived(banner({ _id: 'b2' })));
    expect(state.banners.map((b) => b._id)).toEqual(['b2', 'b1']);
    state = bannerReducer(state, socketEvents.broadcastDismissed('b2'));
    expect(state.banners.map((b) => b._id)).toEqual(['b1']);
    state = bannerReducer(state, socketEvents.broadcastDeactivated('b1'));
    expect(state.banners).toEqual([]);
    state = bannerReducer(state, socketEvents.broadcastReceived(banner()));
    expect(bannerReducer(state, socketEvents.broadcastDeletedAll()).banners).toEqual([]);
  });

  it('a list read before a deactivation and answered after it does not bring the banner back', () => {
    const fulfilled = (banners: ReturnType<typeof banner>[]) =>
      fetchBanners.fulfilled({ banners, dismissedIds: [] }, 'r1', { checkDismissed: false });
    let state = bannerReducer(initialBannerState(), socketEvents.broadcastReceived(banner()));
    state = bannerReducer(state, socketEvents.broadcastDeactivated('b1'));
    state = bannerReducer(state, fulfilled([banner(), banner({ _id: 'b2' })]));
    expect(state.banners.map((b) => b._id)).toEqual(['b2']);
    state = bannerReducer(state, socketEvents.broadcastDeletedAll());
    state = bannerReducer(state, fulfilled([banner({ _id: 'b2' })]));
    expect(state.banners).toEqual([]);
    // Sent again by the server: it shows, and a later list keeps it.
    state = bannerReducer(state, socketEvents.broadcastReceived(banner()));
    state = bannerReducer(state, fulfilled([banner()]));
    expect(state.banners.map((b) => b._id)).toEqual(['b1']);
  });

  it('a list read before a banner arrived live and answered after it keeps that banner first', () => {
    const args = { checkDismissed: false };
    let state = bannerReducer(initialBannerState(), fetchBanners.pending('r1', args));
    state = bannerReducer(state, socketEvents.broadcastReceived(banner({ _id: 'new' })));
    state = bannerReducer(state, fetchBanners.fulfilled({ banners: [banner()], dismissedIds: [] }, 'r1', args));
    expect(state.banners.map((b) => b._id)).toEqual(['new', 'b1']);
    // A read begun after the arrival is the truth: a banner it does not list is gone.
    state = bannerReducer(state, fetchBanners.pending('r2', args));
    state = bannerReducer(state, fetchBanners.fulfilled({ banners: [banner()], dismissedIds: [] }, 'r2', args));
    expect(state.banners.map((b) => b._id)).toEqual(['b1']);
    expect(state.fetchStarts).toEqual({});
  });

  it('hides on expiry', () => {
    const state = bannerReducer({ ...initialBannerState(), banners: [banner()] }, bannerExpired('b1'));
    expect(state.banners).toEqual([]);
  });

  it('hides on dismissal and remembers it; signed-in users tell the server', async () => {
    mockApi.on('PATCH', '/bannerNotification/dismiss/b1', { body: { message: 'ok' } });
    const store = setupStore({ banner: { banners: [banner()], dismissedIds: [], withdrawnIds: [], liveSeq: 0, arrivals: {}, fetchStarts: {}, error: null } });
    await store.dispatch(dismissBanner({ id: 'b1', remote: true }));
    expect(store.getState().banner).toMatchObject({ banners: [], dismissedIds: ['b1'] });
    expect(mockApi.calls('PATCH', '/bannerNotification/dismiss/b1')).toHaveLength(1);
  });

  it('loads banners and the dismissal status; a 403 for administrators is only warned', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    mockApi.on('GET', '/bannerNotification/get-Notification', { body: { notifications: [banner(), banner({ _id: 'b2' })] } });
    mockApi.on('GET', '/bannerNotification/dismissed/b1', { body: { dismissed: true } });
    mockApi.on('GET', '/bannerNotification/dismissed/b2', { status: 403, body: { message: 'Forbidden' } });
    const store = setupStore();
    const result = await store.dispatch(fetchBanners({ checkDismissed: true }));
    expect(result.meta.requestStatus).toBe('fulfilled');
    expect(store.getState().banner.dismissedIds).toEqual(['b1']);
    expect(store.getState().banner.banners).toHaveLength(2);
    expect(warn).toHaveBeenCalled();
  });

  it("a failed load keeps the 'Failed to fetch banner notifications' error", async () => {
    mockApi.on('GET', '/bannerNotification/get-Notification', { status: 404 });
    const store = setupStore();
    await store.dispatch(fetchBanners({ checkDismissed: false }));
    expect(store.getState().banner.error).toBe('Failed to fetch banner notifications');
  });

  it('reads the local-storage mirror and accepts a sync from another tab', () => {
    localStorage.setItem('bannerNotification', JSON.stringify({ banners: [banner()], dismissedIds: ['x'] }));
    expect(readBannerMirror()).toEqual({ banners: [banner()], dismissedIds: ['x'] });
    expect(initialBannerState().banners).toHaveLength(1);
    const synced = bannerReducer(initialBannerState(), bannerSynced({ banners: [], dismissedIds: ['b1'] }));
    expect(synced).toMatchObject({ banners: [], dismissedIds: ['b1'] });
  });

  it('ignores a corrupt mirror', () => {
    localStorage.setItem('bannerNotification', '{nope');
    expect(readBannerMirror()).toEqual({ banners: [], dismissedIds: [] });
  });
});
