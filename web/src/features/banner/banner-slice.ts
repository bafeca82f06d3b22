/**
 * Banner notifications (seed 000 §4 "Banner", seed 001 §4 "Banner display"): shown when active, not
 * expired, in the user's region and not dismissed by the user; hidden on dismissal, on realtime
 * dismissal or deactivation, or when a non-sticky banner's expiresAt passes.
 */
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { ApiError, errorMessage } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
import { BANNER_KEY, storage } from '@/lib/storage';
import type { BannerNotification } from '@/types/entities';
import { socketEvents } from '@/features/socket';
import { BANNER_FALLBACK, bannerApi } from './banner-api';

export const BANNER_EXPIRED = 'Banner expired.';

export interface BannerState {
  banners: BannerNotification[];
  dismissedIds: string[];
  /**
   * Banners the server withdrew (deactivated or deleted) while this page was open: a list read
   * before that and answered after it does not bring them back.
   */
  withdrawnIds: string[];
  /**
   * Banners received live, by the number of the live arrival (`liveSeq` counts them), and the
   * arrival number at which each list read in flight began: a list read before a banner arrived
   * live and answered after it does not hide that banner.
   */
  liveSeq: number;
  arrivals: Record<string, number>;
  fetchStarts: Record<string, number>;
  error: string | null;
}

/** What is mirrored in local storage and synced across tabs. */
export interface BannerMirror {
  banners: BannerNotification[];
  dismissedIds: string[];
}

export function readBannerMirror(): BannerMirror {
  const stored = storage.getJson<Partial<BannerMirror>>(BANNER_KEY);
  return {
    banners: Array.isArray(stored?.banners) ? stored.banners.filter((b) => b && typeof b._id === 'string') : [],
    dismissedIds: Array.isArray(stored?.dismissedIds) ? stored.dismissedIds.filter((id) => typeof id === 'string') : [],
  };
}

export function initialBannerState(): BannerState {
  return { ...readBannerMirror(), withdrawnIds: [], liveSeq: 0, arrivals: {}, fetchStarts: {}, error: null };
}

export const fetchBanners = createAsyncThunk<
  { banners: BannerNotification[]; dismissedIds: string[] },
  { checkDismissed: boolean },
  { rejectValue: string }
>('banner/fetch', async ({ checkDismissed }, { rejectWithValue }) => {
  try {
    const banners = await bannerApi.list();
    const dismissedIds: string[] = [];
    if (checkDismissed) {
      await Promise.all(
        banners.map(async (banner) => {
          try {
            if (await bannerApi.dismissed(banner._id)) dismissedIds.push(banner._id);
          } catch (e) {
            // Administrators get a 403 here; that is only warned about.
            if (!(e instanceof ApiError && e.status === 403)) console.warn(errorMessage(e, BANNER_FALLBACK.status));
            else console.warn('Banner dismissal status is not available to administrators');
          }
        }),
      );
    }
    return { banners, dismissedIds };
  } catch (e) {
    return rejectWithValue(errorMessage(e, BANNER_FALLBACK.fetch));
  }
});

/** The visitor closes the banner; signed-in users also tell the server. */
export const dismissBanner = createAsyncThunk('banner/dismiss', async ({ id, remote }: { id: string; remote: boolean }) => {
  if (!remote) return;
  try {
    await bannerApi.dismiss(id);
  } catch (e) {
    console.warn(errorMessage(e, BANNER_FALLBACK.dismiss));
  }
});

function without(list: BannerNotification[], id: string) {
  return list.filter((b) => b._id !== id);
}

const bannerSlice = createSlice({
  name: 'banner',
  initialState: initialBannerState,
  reducers: {
    bannerExpired(state, action: PayloadAction<string>) {
      state.banners = without(state.banners, action.payload);
    },
    /** Another tab changed the mirror. */
    bannerSynced(state, action: PayloadAction<BannerMirror>) {
      state.banners = action.payload.banners;
      state.dismissedIds = action.payload.dismissedIds;
    },
  },
  extraReducers: (builder) => {
    builder
      // Dismissals are per user (`dismissedBy`): the next user's are fetched for them.
      .addCase(sessionUserChanged, (state) => {
        state.dismissedIds = [];
      })
      .addCase(fetchBanners.pending, (state, action) => {
        state.fetchStarts[action.meta.requestId] = state.liveSeq;
      })
      .addCase(fetchBanners.fulfilled, (state, action) => {
        const withdrawn = new Set(state.withdrawnIds);
        const listed = action.payload.banners.filter((b) => b.isActive !== false && !withdrawn.has(b._id));
        // Banners that arrived live after this read began are newer than the list.
        const began = state.fetchStarts[action.meta.requestId] ?? state.liveSeq;
        delete state.fetchStarts[action.meta.requestId];
        const listedIds = new Set(listed.map((b) => b._id));
        const newer = state.banners.filter(
          (b) => (state.arrivals[b._id] ?? -1) >= began && !listedIds.has(b._id) && !withdrawn.has(b._id),
        );
        state.banners = [...newer, ...listed];
        state.dismissedIds = [...new Set([...state.dismissedIds, ...action.payload.dismissedIds])];
        state.error = null;
      })
      .addCase(fetchBanners.rejected, (state, action) => {
        delete state.fetchStarts[action.meta.requestId];
        state.error = action.payload ?? BANNER_FALLBACK.fetch;
      })
      .addCase(dismissBanner.pending, (state, action) => {
        const id = action.meta.arg.id;
        state.banners = without(state.banners, id);
        if (!state.dismissedIds.includes(id)) state.dismissedIds.push(id);
      })
      .addCase(socketEvents.broadcastReceived, (state, action) => {
        state.banners = [action.payload, ...without(state.banners, action.payload._id)];
        state.arrivals[action.payload._id] = state.liveSeq;
        state.liveSeq += 1;
        state.withdrawnIds = state.withdrawnIds.filter((id) => id !== action.payload._id);
      })
      .addCase(socketEvents.broadcastDismissed, (state, action) => {
        state.banners = without(state.banners, action.payload);
      })
      .addCase(socketEvents.broadcastDeactivated, (state, action) => {
        state.banners = without(state.banners, action.payload);
        if (!state.withdrawnIds.includes(action.payload)) state.withdrawnIds.push(action.payload);
      })
      .addCase(socketEvents.broadcastDeletedAll, (state) => {
        state.withdrawnIds = [...new Set([...state.withdrawnIds, ...state.banners.map((b) => b._id)])];
        state.banners = [];
      });
  },
});

export const { bannerExpired, bannerSynced } = bannerSlice.actions;
export const bannerReducer = bannerSlice.reducer;

export interface BannerViewer {
  userId: string | null;
  /** Region names the viewer belongs to (profile region, location country/state), any case. */
  regions: string[];
}

export function isExpired(banner: BannerNotification, now: number): boolean {
  if (banner.sticky || !banner.expiresAt) return false;
  const at = new Date(banner.expiresAt).getTime();
  return !Number.isNaN(at) && at <= now;
}

export function isBannerVisible(
  banner: BannerNotification,
  viewer: BannerViewer,
  dismissedIds: string[],
  now: number,
): boolean {
  if (banner.isActive === false) return false;
  if (isExpired(banner, now)) return false;
  const region = (banner.region ?? 'global').trim().toLowerCase();
  if (region && region !== 'global' && !viewer.regions.some((r) => r.trim().toLowerCase() === region)) return false;
  if (dismissedIds.includes(banner._id)) return false;
  if (viewer.userId && banner.dismissedBy?.includes(viewer.userId)) return false;
  return true;
}

export function selectVisibleBanner(
  state: { banner: BannerState },
  viewer: BannerViewer,
  now: number = Date.now(),
): BannerNotification | null {
  return state.banner.banners.find((b) => isBannerVisible(b, viewer, state.banner.dismissedIds, now)) ?? null;
}
