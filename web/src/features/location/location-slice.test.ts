import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { socketEvents } from '@/features/socket';
import type { UserLocation } from '@/types/entities';
import { fetchIpLocation, initialLocationState, locationReducer, MAX_USER_LOCATIONS, normaliseLocation } from './location-slice';

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
    expect(state.locations.map((l) => l.userId)).toEqual(['a', 'b']);
    expect(state.userLocations.map((l) => l.userId)).toEqual(['a', 'b']);
  });

  it('ignores realtime events without userId, lat and lon', () => {
    const state = locationReducer(initialLocationState, socketEvents.userLocationUpdated({ userId: '' } as UserLocation));
    expect(state.locations).toEqual([]);
  });

  it('caps stored user locations at 500', () => {
    let state = { ...initialLocationState, userLocations: Array.from({ length: MAX_USER_LOCATIONS }, (_, i) => loc(`u${i}`)) };
    state = locationReducer(state, socketEvents.userLocationUpdated(loc('new')));
    expect(state.userLocations).toHaveLength(500);
    expect(state.userLocations[0].userId).toBe('new');
    expect(state.userLocations.at(-1)?.userId).toBe('u498');
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
