import { act, screen, within } from '@testing-library/react';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { initialFollowsState } from '@/features/follows';
import { socketEvents } from '@/features/socket';
import { FollowerMap } from './follower-map';
import { MAP_HEIGHT, MAP_WIDTH, projectPoints } from './locations-map';

const square = { type: 'Feature', id: 1, properties: { name: 'Square' }, geometry: { type: 'Polygon', coordinates: [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]] } };
const pune = { userId: 'f1', coordinates: { lat: 18.52, lon: 73.86 }, city: 'Pune', country: 'India', state: 'Maharashtra', pincode: '411001', isOnline: false, user: { _id: 'f1', name: 'Fan One' } };
const london = { ...pune, userId: 'f2', coordinates: { lat: 51.51, lon: -0.09 }, city: 'London', country: 'United Kingdom', state: 'England', isOnline: true, user: { _id: 'f2', name: 'Fan Two' } };

function mockOutlines() {
  mockApi.on('GET', '/geojson/world', { body: { type: 'FeatureCollection', features: [square] } });
  mockApi.on('GET', '/geojson/india-border', { body: { type: 'FeatureCollection', features: [square] } });
}

describe('the follower map', () => {
  it('projects the globe into the frame: west is left, north is up', () => {
    const { points } = projectPoints([pune, london]);
    for (const p of points) {
      expect(p.x).toBeGreaterThan(0);
      expect(p.x).toBeLessThan(MAP_WIDTH);
      expect(p.y).toBeGreaterThan(0);
      expect(p.y).toBeLessThan(MAP_HEIGHT);
    }
    const [p, l] = points;
    expect(l.x).toBeLessThan(p.x);
    expect(l.y).toBeLessThan(p.y);
  });

  it('reads every follower location, draws a point each and lists them with their place and presence', async () => {
    mockOutlines();
    mockApi.on('GET', '/follow/follower-locations', { body: { list: [london, pune], total: 2, totalPages: 1, page: 1 } });
    renderWithProviders(<FollowerMap />, { preloadedState: { auth: signedInAuth() } });
    const places = await screen.findAllByTestId('place');
    expect(places).toHaveLength(2);
    expect(within(places[0]).getByText('London, England, United Kingdom')).toBeInTheDocument();
    expect(within(places[0]).getByText('Online')).toBeInTheDocument();
    expect(within(places[1]).getByText('Offline')).toBeInTheDocument();
    expect(screen.getAllByTestId('map-point')).toHaveLength(2);
    expect(screen.getByText('2 followers on the map, 1 online')).toBeInTheDocument();
    expect(await screen.findByTestId('map-india')).toBeInTheDocument();
  });

  it("focusing a person in the list from the keyboard highlights their point", async () => {
    mockOutlines();
    mockApi.on('GET', '/follow/follower-locations', { body: { list: [london, pune], total: 2, totalPages: 1, page: 1 } });
    renderWithProviders(<FollowerMap />, { preloadedState: { auth: signedInAuth() } });
    await screen.findAllByTestId('place');
    const point = () => screen.getAllByTestId('map-point').find((p) => p.dataset.user === 'f1')!;
    expect(point().getAttribute('class')).not.toContain('map-point--focused');
    act(() => {
      screen.getByRole('link', { name: 'Fan One' }).focus();
    });
    expect(point().getAttribute('class')).toContain('map-point--focused');
    act(() => {
      screen.getByRole('link', { name: 'Fan One' }).blur();
    });
    expect(point().getAttribute('class')).not.toContain('map-point--focused');
  });

  it('lights a follower up and moves them live', async () => {
    mockOutlines();
    mockApi.on('GET', '/follow/follower-locations', { body: { list: [pune], total: 1, totalPages: 1, page: 1 } });
    const { store } = renderWithProviders(<FollowerMap />, { preloadedState: { auth: signedInAuth() } });
    await screen.findByTestId('place');
    const point = () => screen.getByTestId('map-point');
    const before = point().style.transform;
    act(() => {
      store.dispatch(socketEvents.userStatusChanged({ userId: 'f1', isOnline: true }));
    });
    expect(point().dataset.online).toBe('true');
    act(() => {
      store.dispatch(socketEvents.userLocationUpdated({ userId: 'f1', lat: 51.5, lon: -0.1, city: 'London' } as never));
    });
    expect(point().style.transform).not.toBe(before);
    expect(screen.getByText('London')).toBeInTheDocument();
  });

  it('says so when no follower shared a location, and shows outline errors', async () => {
    mockApi.on('GET', '/geojson/world', { body: { type: 'FeatureCollection', features: [] } });
    mockApi.on('GET', '/geojson/india-border', { status: 500 });
    mockApi.on('GET', '/follow/follower-locations', { body: { list: [], total: 0, totalPages: 0, page: 1 } });
    renderWithProviders(<FollowerMap />, { preloadedState: { auth: signedInAuth(), follows: initialFollowsState } });
    expect(await screen.findByText('None of your followers has shared a location yet.')).toBeInTheDocument();
    expect(await screen.findByText(/No features found|GeoJSON fetch failed/)).toBeInTheDocument();
  });

  it("a failed read says 'Failed to fetch follower locations' with a retry", async () => {
    mockOutlines();
    mockApi.on('GET', '/follow/follower-locations', { status: 500 });
    renderWithProviders(<FollowerMap />, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByText('Failed to fetch follower locations')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Try again' }).length).toBeGreaterThan(0);
  });
});
