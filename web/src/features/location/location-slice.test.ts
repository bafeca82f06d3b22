import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { socketEvents } from '@/features/socket';
import type { UserLocation } from '@/types/entities';
import { signedInAuth, testAdmin } from '@/test/render';
import {
  fetchGeoData,
  fetchIpLocation,
  fetchUserLocations,
  trackIpLocation,
  GEO_DATA_TIMEOUT_MS,
  initialLocationState,
  locationList,
  locationReducer,
  MAX_USER_LOCATIONS,
  normaliseLocation,
  selectLocations,
  selectUserLocations,
} from './location-slice';

/** A state's lists, newest first. */
const locationsOf = (location: typeof initialLocationState) => selectLocations({ location });
const userLocationsOf = (location: typeof initialLocationState) => selectUserLocations({ location });

const loc = (userId: string): UserLocation => normaliseLocation({ userId, coordinates: { lat: 1, lon: 2 } });

describe('locations', () => {
  it('defaults missing parts to 0 and Unknown', () => {
    expect(normaliseLocation({ userId: 'u' })).toEqual({
      userId: 'u',
      coordinates: { lat: 0, lon: 0 },
      city: 'Unknown',
      country: 'Unknown',
      state: 'Unknown',
      pincode: 'Unknown',
      timestamp: undefined,
      countryCode: undefined,
    });
  });

  it('a realtime location goes to the front of both lists and replaces the same user', () => {
    let state = locationReducer(initialLocationState, socketEvents.userLocationUpdated(loc('a')));
    state = locationReducer(state, socketEvents.userLocationUpdated(loc('b')));
    state = locationReducer(state, socketEvents.userLocationUpdated(loc('a')));
    expect(locationsOf(state).map((l) => l.userId)).toEqual(['a', 'b']);
    expect(userLocationsOf(state).map((l) => l.userId)).toEqual(['a', 'b']);
  });

  it('ignores realtime events without userId, lat and lon', () => {
    const state = locationReducer(initialLocationState, socketEvents.userLocationUpdated({ userId: '' } as UserLocation));
    expect(locationsOf(state)).toEqual([]);
  });

  it('caps stored user locations at 500', () => {
    let state = { ...initialLocationState, userLocations: locationList(Array.from({ length: MAX_USER_LOCATIONS }, (_, i) => loc(`u${i}`))) };
    state = locationReducer(state, socketEvents.userLocationUpdated(loc('new')));
    expect(userLocationsOf(state)).toHaveLength(500);
    expect(userLocationsOf(state)[0].userId).toBe('new');
    expect(userLocationsOf(state).at(-1)?.userId).toBe('u498');
  });

  it('tracks the IP location once; later calls reuse the cached result', async () => {
    mockApi.on('GET', '/user/ip-location', { body: { location: { latitude: 1, longitude: 2, city: 'Pune', country: 'India', state: 'MH', pincode: '411001', countryCode: 'IN' } } });
    const store = setupStore();
    await store.dispatch(fetchIpLocation());
    await store.dispatch(fetchIpLocation());
    expect(mockApi.calls('GET', '/user/ip-location')).toHaveLength(1);
    expect(store.getState().location.ipLocation?.country).toBe('India');
  });

  it('a failed IP track resets tracked to false, so the next call tries again', async () => {
    mockApi.on('GET', '/user/ip-location', { body: { location: { latitude: 1, longitude: 2, city: 'Pune', country: 'India', state: 'MH', pincode: '411001' } } });
    mockApi.on('GET', '/user/ip-location', { status: 503, body: { message: 'Database unavailable' } }, { once: true });
    const store = setupStore();
    await store.dispatch(fetchIpLocation());
    expect(store.getState().location).toMatchObject({ tracked: false, ipLocation: null, error: 'Database unavailable' });
    await store.dispatch(fetchIpLocation());
    expect(mockApi.calls('GET', '/user/ip-location')).toHaveLength(2);
    expect(store.getState().location).toMatchObject({ tracked: true, error: null });
    expect(store.getState().location.ipLocation?.city).toBe('Pune');
  });
});

describe('all user locations and map outlines', () => {
  const admin = { ...signedInAuth({ user: testAdmin, role: 'admin' }) };
  const pune = { userId: 'u5', coordinates: { lat: 18.5, lon: 73.8 }, city: 'Pune', country: 'India', state: 'MH', pincode: '411001', user: { _id: 'u5', name: 'Eve' } };

  it("all user locations need the role admin, else 'Admin access required' (no request)", async () => {
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchUserLocations());
    expect(store.getState().location.userLocationsMeta).toMatchObject({ status: 'failed', error: 'Admin access required' });
    expect(mockApi.calls('GET', '/user/locations')).toHaveLength(0);
  });

  it('an administrator reads every page into userLocations, with who each one is', async () => {
    mockApi.on('GET', '/user/locations', (req) => {
      const page = Number(req.url.searchParams.get('page'));
      return { body: { locations: [{ ...pune, userId: `u${page}` }], total: 2, totalPages: 2, page } };
    });
    const store = setupStore({ auth: admin });
    await store.dispatch(fetchUserLocations());
    expect(userLocationsOf(store.getState().location).map((l) => l.userId)).toEqual(['u1', 'u2']);
    expect(userLocationsOf(store.getState().location)[0].user?.name).toBe('Eve');
    expect(store.getState().location.userLocationsMeta).toMatchObject({ total: 2, totalPages: 2, status: 'succeeded' });
  });

  it("a failed read says 'Failed to fetch user locations'", async () => {
    mockApi.on('GET', '/user/locations', { status: 500 });
    const store = setupStore({ auth: admin });
    await store.dispatch(fetchUserLocations());
    expect(store.getState().location.userLocationsMeta.error).toBe('Failed to fetch user locations');
  });

  it('a live move keeps the name and presence of the entry it replaces; presence lights points', () => {
    const store = setupStore({ auth: admin, location: { ...initialLocationState, userLocations: locationList([{ ...pune, isOnline: false }]) } });
    store.dispatch(socketEvents.userStatusChanged({ userId: 'u5', isOnline: true }));
    store.dispatch(socketEvents.userLocationUpdated({ userId: 'u5', lat: 1, lon: 2 } as never));
    expect(userLocationsOf(store.getState().location)[0]).toMatchObject({ coordinates: { lat: 1, lon: 2 }, user: { name: 'Eve' }, isOnline: true, city: 'Unknown' });
  });

  it('an outline must be a FeatureCollection with a feature, else No features found', async () => {
    mockApi.on('GET', '/geojson/india-border', { body: { type: 'FeatureCollection', features: [] } });
    mockApi.on('GET', '/geojson/world', { body: { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: null }] } });
    const store = setupStore();
    await store.dispatch(fetchGeoData('india'));
    await store.dispatch(fetchGeoData('world'));
    expect(store.getState().location.geo.india).toMatchObject({ status: 'failed', error: 'No features found' });
    expect(store.getState().location.geo.world.status).toBe('succeeded');
    // Loaded once.
    await store.dispatch(fetchGeoData('world'));
    expect(mockApi.calls('GET', '/geojson/world')).toHaveLength(1);
  });

  it("an outline that cannot be fetched says 'GeoJSON fetch failed'; the timeout is 30 s", async () => {
    mockApi.on('GET', '/geojson/world', { status: 503 });
    const store = setupStore();
    await store.dispatch(fetchGeoData('world'));
    expect(store.getState().location.geo.world).toMatchObject({ status: 'failed', error: 'GeoJSON fetch failed' });
    expect(GEO_DATA_TIMEOUT_MS).toBe(30_000);
  });
});

describe('tracking the IP location', () => {
  it('a track puts the location at the front of both lists', async () => {
    mockApi.on('POST', '/user/track-ip-location', { body: { location: { userId: 'u1', coordinates: { lat: 51.5, lon: -0.09 }, city: 'London', country: 'United Kingdom' } } });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(trackIpLocation());
    expect(locationsOf(store.getState().location)[0]).toMatchObject({ userId: 'u1', city: 'London', state: 'Unknown' });
    expect(userLocationsOf(store.getState().location)[0].userId).toBe('u1');
  });

  it("a failed track says 'Failed to track IP location'", async () => {
    mockApi.on('POST', '/user/track-ip-location', { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    const result = await store.dispatch(trackIpLocation());
    expect(result.payload).toBe('Failed to track IP location');
  });
});
