/** Locations (seed 000 §3 "User location", §4 "Locations", §7 realtime and geolocation). */
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { errorMessage, http } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
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

/** The raw IP location. */
export interface IpLocation {
  latitude: number;
  longitude: number;
  city: string;
  country: string;
  state: string;
  pincode: string;
  countryCode?: string;
  userId?: string;
  timestamp?: string;
}

export interface LocationState {
  ipLocation: IpLocation | null;
  tracked: boolean;
  locations: UserLocation[];
  userLocations: UserLocation[];
  error: string | null;
  /** Shown in the location error toast. */
  geoError: string | null;
}

export const initialLocationState: LocationState = {
  ipLocation: null,
  tracked: false,
  locations: [],
  userLocations: [],
  error: null,
  geoError: null,
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

type Config = { rejectValue: string; state: { location: LocationState } };

/** Runs once; later calls reuse the cached result. */
export const fetchIpLocation = createAsyncThunk<IpLocation, void, Config>(
  'location/fetchIp',
  async (_, { rejectWithValue }) => {
    try {
      const r = await http.get<{ location?: IpLocation }>('/user/ip-location', LOCATION_FALLBACK.ipLocation);
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
      const r = await http.post<{ location?: UserLocation }>(
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

function putFirst(list: UserLocation[], location: UserLocation, cap?: number) {
  const next = [location, ...list.filter((l) => l.userId !== location.userId)];
  return cap ? next.slice(0, cap) : next;
}

const locationSlice = createSlice({
  name: 'location',
  initialState: initialLocationState,
  reducers: {
    geolocationFailed(state, action: PayloadAction<string>) {
      state.geoError = action.payload;
    },
    geoErrorDismissed(state) {
      state.geoError = null;
    },
  },
  extraReducers: (builder) => {
    builder
      // Follower locations and what the user saved are theirs; the visitor's IP location is not.
      .addCase(sessionUserChanged, (state) => {
        state.locations = [];
        state.userLocations = [];
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
      .addCase(saveLocation.fulfilled, (state, action) => {
        state.locations = putFirst(state.locations, action.payload);
        state.userLocations = putFirst(state.userLocations, action.payload, MAX_USER_LOCATIONS);
      })
      .addCase(saveLocation.rejected, (state, action) => {
        state.error = action.payload ?? LOCATION_FALLBACK.save;
      })
      .addCase(socketEvents.userLocationUpdated, (state, action) => {
        const raw = action.payload as Partial<UserLocation> & { lat?: number; lon?: number };
        const lat = raw.coordinates?.lat ?? raw.lat;
        const lon = raw.coordinates?.lon ?? raw.lon;
        if (!raw.userId || lat === undefined || lat === null || lon === undefined || lon === null) return;
        const location = normaliseLocation(raw);
        state.locations = putFirst(state.locations, location);
        state.userLocations = putFirst(state.userLocations, location, MAX_USER_LOCATIONS);
      });
  },
});

export const { geolocationFailed, geoErrorDismissed } = locationSlice.actions;
export const locationReducer = locationSlice.reducer;
export const selectIpLocation = (state: { location: LocationState }) => state.location.ipLocation;
