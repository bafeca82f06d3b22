/**
 * Locations: every user's latest location on a world map (d3-geo over the server's world
 * outlines), with the same places as a paged table for keyboards and screen readers. The map
 * holds up to 500 points (the largest page the server gives); moves arrive live through
 * `userLocationUpdate` and are merged into the map.
 */
import { geoEqualEarth, geoPath, type GeoPermissibleObjects } from 'd3-geo';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { relativeTime } from '@/lib/format';
import { errorMessage, http } from '@/lib/http';
import type { UserLocation } from '@/types/entities';
import { ListState } from '../components/list-state';
import { Pager } from '../components/pager';
import type { Status } from '../admin-types';

export const LOCATIONS_FALLBACK = 'Failed to fetch user locations';
const MAP_POINTS = 500;
const TABLE_PAGE = 12;
const WIDTH = 960;
const HEIGHT = 500;

type Located = UserLocation & { user?: { _id: string; name: string } | null };
interface Page {
  locations: Located[];
  total: number;
  totalPages: number;
  page: number;
}

function useWorld() {
  const [world, setWorld] = useState<GeoPermissibleObjects | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    http
      .get<GeoPermissibleObjects>('/geojson/world', 'Failed to load the world map')
      .then((w) => live && setWorld(w))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, []);
  return { world, failed };
}

function usePage(page: number, limit: number) {
  const [state, setState] = useState<{ data: Page | null; status: Status; error: string | null }>({ data: null, status: 'idle', error: null });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, status: 'loading', error: null }));
    http
      .get<Page>('/user/locations', LOCATIONS_FALLBACK, { page, limit })
      .then((data) => live && setState({ data, status: 'succeeded', error: null }))
      .catch((e) => live && setState({ data: null, status: 'failed', error: errorMessage(e, LOCATIONS_FALLBACK) }));
    return () => {
      live = false;
    };
  }, [page, limit, attempt]);
  return { ...state, retry: () => setAttempt((a) => a + 1) };
}

export function LocationsSection() {
  const { world, failed } = useWorld();
  const points = usePage(1, MAP_POINTS);
  const [tablePage, setTablePage] = useState(1);
  const table = usePage(tablePage, TABLE_PAGE);
  const live = useAppSelector((s) => s.location.userLocations);

  // The fetched points, with live moves replacing a user's point.
  const merged = useMemo(() => {
    const byUser = new Map<string, Located>();
    for (const l of points.data?.locations ?? []) byUser.set(l.userId, l);
    for (const l of live ?? []) byUser.set(l.userId, { ...byUser.get(l.userId), ...l });
    return [...byUser.values()];
  }, [points.data, live]);

  const projection = useMemo(() => {
    const p = geoEqualEarth();
    if (world) p.fitSize([WIDTH, HEIGHT], world);
    else p.fitSize([WIDTH, HEIGHT], { type: 'Sphere' });
    return p;
  }, [world]);
  const path = useMemo(() => geoPath(projection), [projection]);
  const outline = useMemo(() => path({ type: 'Sphere' }) ?? '', [path]);
  const countries = useMemo(() => (world ? (path(world) ?? '') : ''), [path, world]);

  return (
    <>
      <figure className="chart location-map" aria-labelledby="map-caption">
        <figcaption id="map-caption">
          {points.status === 'succeeded' ? `${points.data?.total ?? 0} users with a known location${(points.data?.total ?? 0) > MAP_POINTS ? ` (the latest ${MAP_POINTS} shown)` : ''}` : 'Where users are'}
        </figcaption>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`World map with ${merged.length} user locations; the table below lists them`} data-testid="location-map">
          <path d={outline} className="location-map__sphere" />
          <path d={countries} className="location-map__land" />
          {merged.map((l) => {
            const xy = projection([l.coordinates.lon, l.coordinates.lat]);
            if (!xy) return null;
            return (
              <circle key={l.userId} cx={xy[0]} cy={xy[1]} r={4} className="location-map__point">
                <title>{`${l.user?.name ?? 'A user'}: ${[l.city, l.country].filter(Boolean).join(', ')}`}</title>
              </circle>
            );
          })}
        </svg>
        {failed ? <p className="muted small">The country outlines could not be loaded; the points are still placed.</p> : null}
      </figure>
      {points.status === 'failed' ? (
        <p className="form-error" role="alert">
          {points.error}
        </p>
      ) : null}
      <h3>All locations</h3>
      <ListState status={table.status} error={table.error} count={table.data?.locations.length ?? 0} emptyText="No user has shared a location yet." onRetry={table.retry} />
      {table.data && table.data.locations.length > 0 ? (
        <div className="table-scroll">
          <table className="data-table">
            <caption className="visually-hidden">User locations, newest first</caption>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Place</th>
                <th scope="col">Coordinates</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {table.data.locations.map((l) => (
                <tr key={l.userId}>
                  <td>{l.user ? <Link to={`/author-profile/${l.user._id}`}>{l.user.name}</Link> : 'Deleted user'}</td>
                  <td>{[l.city, l.state, l.country].filter(Boolean).join(', ') || '—'}</td>
                  <td>
                    {l.coordinates.lat.toFixed(2)}, {l.coordinates.lon.toFixed(2)}
                  </td>
                  <td>{relativeTime(l.timestamp)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager label="Locations" page={tablePage} totalPages={table.data?.totalPages ?? 0} onPage={setTablePage} disabled={table.status === 'loading'} />
    </>
  );
}
