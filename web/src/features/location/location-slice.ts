/**
 * Locations (seed 000 §3 "User location", §4 "Locations", §7 realtime and geolocation). Both
 * location lists are kept by an entity adapter, one entry per user (`userId`) with the ids in the
 * spec's order: a save, a track or a realtime move puts the user's location at the front, in place
 * of their earlier one; the stored user locations are capped at 500 (the oldest go).
 */
import { createAsyncThunk, createEntityAdapter, createSlice, type EntityState, type PayloadAction } from '@reduxjs/toolkit';
import type {
  GetGeojsonWorldApiResponse,
  GetUserIpLocationApiResponse,
  GetUserLocationsApiResponse,
  PostUserSaveLocationApiResponse,
  PostUserTrackIpLocationApiResponse,
} from '@/api/endpoints';
import { errorMessage, http, request } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
import { storage } from '@/lib/storage';
import type { UserLocation } from '@/types/entities';
import { socketEvents } from '@/features/socket';

export const MAX_USER_LOCATIONS = 500;
export const GEOLOCATION_TIMEOUT_MS = 30_000;
export const LOCATION_FALLBACK = {
  ipLocation: 'Failed to get IP location',
  track: 'Failed to track IP location',
  save: 'Failed to save location',
  invalidIp: 'Invalid location data from IP',
} as const;
export const GEOLOCATION_UNSUPPORTED = 'Geolocation is not supported by your browser.';
/** Page size of location lists (seed 000 §9). */
export const LOCATION_LIST_PAGE_SIZE = 12;
/** The administrators' map reads this many locations per request (the stored cap is 500). */
export const ALL_LOCATIONS_PAGE_SIZE = 100;
/** Geo data request timeout (seed 000 §9). */
export const GEO_DATA_TIMEOUT_MS = 30_000;
export const GEO_MESSAGES = {
  fetchFailed: 'GeoJSON fetch failed',
  noFeatures: 'No features found',
  userLocations: 'Failed to fetch user locations',
  adminOnly: 'Admin access required',
} as const;

/** A GeoJSON FeatureCollection (only what the map reads). */
export interface FeatureCollection {
  type: 'FeatureCollection';
  features: { type: 'Feature'; id?: string | number; properties?: Record<string, unknown> | null; geometry: unknown }[];
}

export type GeoKind = 'world' | 'india';
export const GEO_PATHS: Record<GeoKind, string> = { world: '/geojson/world', india: '/geojson/india-border' };

export interface GeoData {
  data: FeatureCollection | null;
  status: 'idle' | 'loading' | 'succeeded' | 'failed';
  error: string | null;
}

/** The raw IP location. */
export interface IpLocation {
  latitude: number;
  longitude: number;
  city: string;
  country: string;
  state: string;
  pincode: string;
  countryCode?: string | null;
  userId?: string | null;
  timestamp?: string;
}

/** 'shared': the person chose to share their precise position; 'declined': they refused (never asked again). */
export type PreciseChoice = 'shared' | 'declined' | null;

/** Where the choice is kept (local storage). */
export const PRECISE_LOCATION_KEY = 'preciseLocation';

export function readPreciseChoice(): PreciseChoice {
  const raw = storage.get(PRECISE_LOCATION_KEY);
  return raw === 'shared' || raw === 'declined' ? raw : null;
}

export interface LocationState {
  ipLocation: IpLocation | null;
  tracked: boolean;
  locations: EntityState<UserLocation, string>;
  userLocations: EntityState<UserLocation, string>;
  error: string | null;
  /** Shown in the location error toast. */
  geoError: string | null;
  /**
   * Whether this browser shares the precise (GPS) position: chosen by the person (settings or the
   * follower map's prompt), kept in local storage; null until they choose.
   */
  preciseChoice: PreciseChoice;
  /** The administrators' list of every user's location: its paging and status. */
  userLocationsMeta: { total: number; totalPages: number; page: number; status: 'idle' | 'loading' | 'succeeded' | 'failed'; error: string | null };
  /** Map outlines. */
  geo: Record<GeoKind, GeoData>;
}

const listAdapter = createEntityAdapter<UserLocation, string>({ selectId: (l) => l.userId });

/** A location list holding `items` in their order (for a store's preloaded state). */
export const locationList = (items: UserLocation[] = []) => listAdapter.setAll(listAdapter.getInitialState(), items);

export const initialLocationState: LocationState = {
  ipLocation: null,
  tracked: false,
  locations: locationList(),
  userLocations: locationList(),
  error: null,
  geoError: null,
  preciseChoice: null,
  userLocationsMeta: { total: 0, totalPages: 0, page: 0, status: 'idle', error: null },
  geo: {
    world: { data: null, status: 'idle', error: null },
    india: { data: null, status: 'idle', error: null },
  },
};

/** Fills in the defaults: 0 for coordinates, Unknown for names. */
export function normaliseLocation(raw: Partial<UserLocation> & { lat?: number; lon?: number; userId?: string }): UserLocation {
  const lat = Number(raw.coordinates?.lat ?? raw.lat);
  const lon = Number(raw.coordinates?.lon ?? raw.lon);
  return {
    userId: String(raw.userId ?? ''),
    coordinates: { lat: Number.isFinite(lat) ? lat : 0, lon: Number.isFinite(lon) ? lon : 0 },
    city: raw.city || 'Unknown',
    country: raw.country || 'Unknown',
    state: raw.state || 'Unknown',
    pincode: raw.pincode || 'Unknown',
    timestamp: raw.timestamp,
    countryCode: raw.countryCode,
  };
}

/**
 * The location a realtime `userLocationUpdate` carries, normalised; null when it lacks userId, lat
 * or lon (seed 000 §5: such events are ignored).
 */
export function locationFromEvent(raw: Partial<UserLocation> & { lat?: number; lon?: number }): UserLocation | null {
  const lat = raw.coordinates?.lat ?? raw.lat;
  const lon = raw.coordinates?.lon ?? raw.lon;
  if (!raw.userId || lat === undefined || lat === null || lon === undefined || lon === null) return null;
  if (!Number.isFinite(Number(lat)) || !Number.isFinite(Number(lon))) return null;
  return normaliseLocation(raw);
}

/** A moved location keeps who it is and their presence from the entry it replaces. */
export function movedLocation(previous: UserLocation | undefined, location: UserLocation): UserLocation {
  return { ...location, user: previous?.user ?? null, isOnline: previous?.isOnline ?? true };
}

type Config = { rejectValue: string; state: { location: LocationState } };

/** Runs once; later calls reuse the cached result. */
export const fetchIpLocation = createAsyncThunk<IpLocation, void, Config>(
  'location/fetchIp',
  async (_, { rejectWithValue }) => {
    try {
      const r = await http.get<GetUserIpLocationApiResponse>('/user/ip-location', LOCATION_FALLBACK.ipLocation);
      if (!r?.location) return rejectWithValue(LOCATION_FALLBACK.ipLocation);
      return r.location;
    } catch (e) {
      return rejectWithValue(errorMessage(e, LOCATION_FALLBACK.ipLocation));
    }
  },
  { condition: (_, { getState }) => getState().location.ipLocation === null && !getState().location.tracked },
);

export const saveLocation = createAsyncThunk<UserLocation, Omit<UserLocation, 'userId'> & { userId?: string }, Config>(
  'location/save',
  async (body, { rejectWithValue }) => {
    try {
      const r = await http.post<PostUserSaveLocationApiResponse>(
        '/user/save-location',
        { coordinates: body.coordinates, city: body.city, country: body.country, state: body.state, pincode: body.pincode },
        LOCATION_FALLBACK.save,
      );
      return normaliseLocation({ ...body, ...(r?.location ?? {}) });
    } catch (e) {
      return rejectWithValue(errorMessage(e, LOCATION_FALLBACK.save));
    }
  },
);

/**
 * Places the signed-in user by their address (`POST /user/track-ip-location`); the server keeps
 * it as their location when they have no device position yet, so follower maps show them.
 */
export const trackIpLocation = createAsyncThunk<UserLocation, void, { rejectValue: string; state: { location: LocationState } }>(
  'location/trackIp',
  async (_, { rejectWithValue }) => {
    try {
      const r = await http.post<PostUserTrackIpLocationApiResponse>('/user/track-ip-location', {}, LOCATION_FALLBACK.track);
      if (!r?.location) return rejectWithValue(LOCATION_FALLBACK.track);
      return normaliseLocation(r.location);
    } catch (e) {
      return rejectWithValue(errorMessage(e, LOCATION_FALLBACK.track));
    }
  },
);

type AdminConfig = { rejectValue: string; state: { auth: { role: string | null } } };

/**
 * Every user's latest location (administrators; seed 000 §5 'Admin access required' for
 * others), read page after page up to the stored cap of 500.
 */
export const fetchUserLocations = createAsyncThunk<{ list: UserLocation[]; total: number; totalPages: number; page: number }, void, AdminConfig>(
  'location/fetchUserLocations',
  async (_, { getState, rejectWithValue }) => {
    if (getState().auth.role !== 'admin') return rejectWithValue(GEO_MESSAGES.adminOnly);
    try {
      const all: UserLocation[] = [];
      let page = 1;
      let total = 0;
      let totalPages = 1;
      while (page <= totalPages && all.length < MAX_USER_LOCATIONS) {
        const r = await http.get<GetUserLocationsApiResponse>(
          '/user/locations',
          GEO_MESSAGES.userLocations,
          { page, limit: ALL_LOCATIONS_PAGE_SIZE },
        );
        all.push(...(r?.locations ?? r?.list ?? []));
        total = Number(r?.total) || 0;
        totalPages = Number(r?.totalPages) || 0;
        page += 1;
      }
      return { list: all.slice(0, MAX_USER_LOCATIONS), total, totalPages, page: page - 1 };
    } catch (e) {
      return rejectWithValue(errorMessage(e, GEO_MESSAGES.userLocations));
    }
  },
);

/** The document gives the outlines as any object: this one is a FeatureCollection with at least one feature. */
function isFeatureCollection(data: unknown): data is FeatureCollection {
  if (!data || typeof data !== 'object') return false;
  const { type, features } = data as { type?: unknown; features?: unknown };
  return type === 'FeatureCollection' && Array.isArray(features) && features.length > 0;
}

/** A map outline: a FeatureCollection with at least one feature, else 'No features found'. */
export const fetchGeoData = createAsyncThunk<FeatureCollection, GeoKind, { rejectValue: string; state: { location: LocationState } }>(
  'location/fetchGeoData',
  async (kind, { rejectWithValue }) => {
    // Both outlines' answers are the document's untyped GeoJSON object (GetGeojsonIndiaBorderApiResponse is the same).
    let data: GetGeojsonWorldApiResponse | null;
    try {
      data = await request<GetGeojsonWorldApiResponse>(GEO_PATHS[kind], { fallback: GEO_MESSAGES.fetchFailed, timeoutMs: GEO_DATA_TIMEOUT_MS });
    } catch (e) {
      return rejectWithValue(errorMessage(e, GEO_MESSAGES.fetchFailed));
    }
    if (!isFeatureCollection(data)) return rejectWithValue(GEO_MESSAGES.noFeatures);
    return data;
  },
  { condition: (kind, { getState }) => !['loading', 'succeeded'].includes(getState().location.geo[kind].status) },
);

/** The location at the front of `list`, in place of the user's earlier one; the oldest beyond `cap` go. */
function putFirst(list: EntityState<UserLocation, string>, location: UserLocation, cap?: number) {
  listAdapter.setOne(list, location);
  list.ids = [location.userId, ...list.ids.filter((id) => id !== location.userId)];
  if (cap && list.ids.length > cap) listAdapter.removeMany(list, list.ids.slice(cap));
}

const locationSlice = createSlice({
  name: 'location',
  initialState: (): LocationState => ({ ...initialLocationState, preciseChoice: readPreciseChoice() }),
  reducers: {
    geolocationFailed(state, action: PayloadAction<string>) {
      state.geoError = action.payload;
    },
    geoErrorDismissed(state) {
      state.geoError = null;
    },
    preciseChoiceChanged(state, action: PayloadAction<PreciseChoice>) {
      state.preciseChoice = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      // Follower locations and what the user saved are theirs; the visitor's IP location is not.
      .addCase(sessionUserChanged, (state) => {
        state.locations = locationList();
        state.userLocations = locationList();
        state.userLocationsMeta = initialLocationState.userLocationsMeta;
        state.error = null;
        state.geoError = null;
      })
      .addCase(fetchIpLocation.pending, (state) => {
        state.tracked = true;
      })
      .addCase(fetchIpLocation.fulfilled, (state, action) => {
        state.ipLocation = action.payload;
        state.error = null;
      })
      // A failed IP track resets tracked to false (seed 000 §8), so a later call tries again.
      .addCase(fetchIpLocation.rejected, (state, action) => {
        if (action.meta.condition) return;
        state.tracked = false;
        state.error = action.payload ?? LOCATION_FALLBACK.ipLocation;
      })
      .addCase(fetchUserLocations.pending, (state) => {
        state.userLocationsMeta.status = 'loading';
        state.userLocationsMeta.error = null;
      })
      .addCase(fetchUserLocations.fulfilled, (state, action) => {
        const { list, total, totalPages, page } = action.payload;
        listAdapter.setAll(state.userLocations, list.map((l) => ({ ...l, ...normaliseLocation(l) })));
        state.userLocationsMeta = { total, totalPages, page, status: 'succeeded', error: null };
      })
      .addCase(fetchUserLocations.rejected, (state, action) => {
        state.userLocationsMeta.status = 'failed';
        state.userLocationsMeta.error = action.payload ?? GEO_MESSAGES.userLocations;
      })
      .addCase(fetchGeoData.pending, (state, action) => {
        state.geo[action.meta.arg] = { data: null, status: 'loading', error: null };
      })
      .addCase(fetchGeoData.fulfilled, (state, action) => {
        state.geo[action.meta.arg] = { data: action.payload, status: 'succeeded', error: null };
      })
      .addCase(fetchGeoData.rejected, (state, action) => {
        if (action.meta.condition) return;
        state.geo[action.meta.arg] = { data: null, status: 'failed', error: action.payload ?? GEO_MESSAGES.fetchFailed };
      })
      // A track puts the location at the front of both lists (seed 000 §4).
      .addCase(trackIpLocation.fulfilled, (state, action) => {
        if (!action.payload.userId) return;
        putFirst(state.locations, action.payload);
        putFirst(state.userLocations, action.payload, MAX_USER_LOCATIONS);
      })
      .addCase(saveLocation.fulfilled, (state, action) => {
        putFirst(state.locations, action.payload);
        putFirst(state.userLocations, action.payload, MAX_USER_LOCATIONS);
      })
      .addCase(saveLocation.rejected, (state, action) => {
        state.error = action.payload ?? LOCATION_FALLBACK.save;
      })
      .addCase(socketEvents.userStatusChanged, (state, action) => {
        const located = state.userLocations.entities[action.payload.userId];
        if (located) located.isOnline = action.payload.isOnline;
      })
      .addCase(socketEvents.userLocationUpdated, (state, action) => {
        const location = locationFromEvent(action.payload);
        if (!location) return;
        putFirst(state.locations, movedLocation(state.locations.entities[location.userId], location));
        putFirst(state.userLocations, movedLocation(state.userLocations.entities[location.userId], location), MAX_USER_LOCATIONS);
      });
  },
});

export const { geolocationFailed, geoErrorDismissed, preciseChoiceChanged } = locationSlice.actions;
export const locationReducer = locationSlice.reducer;
export const selectIpLocation = (state: { location: LocationState }) => state.location.ipLocation;
/** Every user's latest location (administrators), newest first. */
export const selectUserLocations = listAdapter.getSelectors((state: { location: LocationState }) => state.location.userLocations).selectAll;
/** The locations this session placed or heard of (own saves and tracks, realtime moves), newest first. */
export const selectLocations = listAdapter.getSelectors((state: { location: LocationState }) => state.location.locations).selectAll;
export const selectGeoData = (state: { location: LocationState }, kind: GeoKind) => state.location.geo[kind];
