/** The banners section: created (added to the front), dismissed or deactivated (both removed), or all deleted. */
import { createSlice } from '@reduxjs/toolkit';
import { ADMIN_FALLBACK, adminApi } from '../admin-api';
import type { BannerNotice, Status } from '../admin-types';
import { failed, loading, sectionThunk } from './paged-list';

export interface BannersState {
  bannerNotifications: { items: BannerNotice[]; status: Status; error: string | null };
}

export const initialBannersState = (): BannersState => ({ bannerNotifications: { items: [], status: 'idle', error: null } });

export interface NewBanner {
  title: string;
  message: string;
  region: string;
  link?: string;
  expiresAt?: string;
  sticky?: boolean;
  urgent?: boolean;
}

const thunk = sectionThunk<BannersState>();

export const fetchBannerNotifications = thunk<BannerNotice[], void>('fetchBannerNotifications', ADMIN_FALLBACK.fetchBanners, async () => {
  const r = await adminApi.banners();
  return r?.notifications ?? [];
});

export const createBannerNotification = thunk<{ banner: BannerNotice; message: string }, NewBanner>('createBannerNotification', ADMIN_FALLBACK.createBanner, async (body) => {
  const r = await adminApi.createBanner(body);
  if (!r?.notification) throw new Error(ADMIN_FALLBACK.createBanner);
  return { banner: r.notification, message: r.message ?? 'Banner created' };
});

export const dismissBannerNotification = thunk<string, string>('dismissBannerNotification', ADMIN_FALLBACK.dismissBanner, async (id) => {
  await adminApi.dismissBanner(id);
  return id;
});

export const deactivateBannerNotification = thunk<string, string>('deactivateBannerNotification', ADMIN_FALLBACK.deactivateBanner, async (id) => {
  await adminApi.deactivateBanner(id);
  return id;
});

export const deleteAllBannerNotifications = thunk<string, void>('deleteAllBannerNotifications', ADMIN_FALLBACK.deleteAllBanners, async () => {
  const r = await adminApi.deleteAllBanners();
  return r?.message ?? 'All banners deleted';
});

export const bannersSlice = createSlice({
  name: 'admin',
  initialState: initialBannersState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(fetchBannerNotifications.pending, (state) => loading(state.bannerNotifications))
      .addCase(fetchBannerNotifications.fulfilled, (state, action) => {
        state.bannerNotifications = { items: action.payload, status: 'succeeded', error: null };
      })
      .addCase(fetchBannerNotifications.rejected, (state, action) => failed(state.bannerNotifications, action.payload, ADMIN_FALLBACK.fetchBanners))
      .addCase(createBannerNotification.fulfilled, (state, action) => {
        const { banner } = action.payload;
        state.bannerNotifications.items = [banner, ...state.bannerNotifications.items.filter((b) => b._id !== banner._id)];
      })
      .addCase(dismissBannerNotification.fulfilled, (state, action) => {
        state.bannerNotifications.items = state.bannerNotifications.items.filter((b) => b._id !== action.payload);
      })
      .addCase(deactivateBannerNotification.fulfilled, (state, action) => {
        state.bannerNotifications.items = state.bannerNotifications.items.filter((b) => b._id !== action.payload);
      })
      .addCase(deleteAllBannerNotifications.fulfilled, (state) => {
        state.bannerNotifications.items = [];
      });
  },
});
