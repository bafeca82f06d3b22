/**
 * A world map of people's locations, drawn offline: country outlines from the server
 * (`/api/geojson/world`, Natural Earth via world-atlas) and India's border
 * (`/api/geojson/india-border`), projected with d3-geo into an SVG — no tile server. Online
 * people are highlighted; a point moves smoothly when a live location update moves it. Beside it,
 * the list: name, city, state, country and whether they are online.
 */
import { geoNaturalEarth1, geoPath, type GeoPermissibleObjects } from 'd3-geo';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { fetchGeoData, selectGeoData, type GeoKind } from '@/features/location';
import type { UserLocation } from '@/types/entities';

export const MAP_WIDTH = 960;
export const MAP_HEIGHT = 500;

function useGeo(kind: GeoKind) {
  const dispatch = useAppDispatch();
  const geo = useAppSelector((state) => selectGeoData(state, kind));
  useEffect(() => {
    if (geo.status === 'idle') void dispatch(fetchGeoData(kind));
  }, [dispatch, kind, geo.status]);
  return { ...geo, retry: () => void dispatch(fetchGeoData(kind)) };
}

/** Where each location falls on the map. */
export function projectPoints(locations: UserLocation[]) {
  // The whole globe fits the frame (whatever outlines there are), so points never fall outside.
  const projection = geoNaturalEarth1().fitExtent(
    [
      [2, 2],
      [MAP_WIDTH - 2, MAP_HEIGHT - 2],
    ],
    { type: 'Sphere' },
  );
  return {
    projection,
    points: locations.map((l) => {
      const [x, y] = projection([l.coordinates.lon, l.coordinates.lat]) ?? [0, 0];
      return { location: l, x, y };
    }),
  };
}

function place(l: UserLocation): string {
  return [l.city, l.state, l.country].filter((p) => p && p !== 'Unknown').join(', ') || 'Unknown place';
}

interface LocationsMapProps {
  /** The map's accessible title, e.g. "Where your followers are". */
  title: string;
  locations: UserLocation[];
  status: 'idle' | 'loading' | 'succeeded' | 'failed';
  error: string | null;
  onRetry: () => void;
  /** Shown when the list is loaded and empty. */
  empty: ReactNode;
  /** What the list's header says, e.g. "12 followers". */
  summary?: ReactNode;
}

/** The map with its list beside it, and their loading, error and empty states. */
export function LocationsMap({ title, locations, status, error, onRetry, empty, summary }: LocationsMapProps) {
  const world = useGeo('world');
  const india = useGeo('india');
  const [focused, setFocused] = useState<string | null>(null);
  const { projection, points } = useMemo(() => projectPoints(locations), [locations]);
  const path = useMemo(() => geoPath(projection), [projection]);
  const countries = useMemo(
    () => (world.data?.features ?? []).map((f, i) => ({ key: String(f.id ?? i), d: path(f as unknown as GeoPermissibleObjects) ?? '' })),
    [world.data, path],
  );
  const indiaBorder = useMemo(
    () => (india.data ? path(india.data as unknown as GeoPermissibleObjects) ?? '' : ''),
    [india.data, path],
  );
  const online = locations.filter((l) => l.isOnline).length;

  return (
    <div className="locations-map" data-testid="locations-map">
      <figure className="locations-map__figure">
        <svg
          viewBox={`0 0 ${MAP_WIDTH} ${MAP_HEIGHT}`}
          role="img"
          aria-labelledby="locations-map-title locations-map-desc"
          className="locations-map__svg"
          data-testid="map-svg"
        >
          <title id="locations-map-title">{title}</title>
          <desc id="locations-map-desc">
            {locations.length} {locations.length === 1 ? 'place' : 'places'} marked, {online} online.
          </desc>
          <path className="map-sphere" d={geoPath(projection)({ type: 'Sphere' }) ?? ''} />
          <g className="map-countries">
            {countries.map((c) => (
              <path key={c.key} d={c.d} />
            ))}
          </g>
          {indiaBorder ? <path className="map-india" d={indiaBorder} data-testid="map-india" /> : null}
          <g className="map-points">
            {points.map(({ location, x, y }) => (
              <g
                key={location.userId}
                className={`map-point ${location.isOnline ? 'map-point--online' : ''} ${focused === location.userId ? 'map-point--focused' : ''}`}
                style={{ transform: `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)` }}
                data-testid="map-point"
                data-user={location.userId}
                data-online={location.isOnline ? 'true' : 'false'}
              >
                {location.isOnline ? <circle className="map-point__halo" r={12} /> : null}
                <circle className="map-point__dot" r={6} />
                <title>{`${location.user?.name ?? 'Someone'} — ${place(location)}${location.isOnline ? ' (online)' : ''}`}</title>
              </g>
            ))}
          </g>
        </svg>
        <figcaption className="muted small">
          Outlines: Natural Earth. {world.status === 'loading' || india.status === 'loading' ? 'Loading the map…' : null}
        </figcaption>
        {world.status === 'failed' || india.status === 'failed' ? (
          <div className="feed-state feed-state--error" role="alert">
            <span>{world.error ?? india.error}</span>
            <button
              type="button"
              className="button button--small button--ghost"
              onClick={() => {
                if (world.status === 'failed') world.retry();
                if (india.status === 'failed') india.retry();
              }}
            >
              Try again
            </button>
          </div>
        ) : null}
      </figure>
      <section className="locations-map__list" aria-label="Places">
        {summary ? <p className="locations-map__summary">{summary}</p> : null}
        {status === 'loading' && locations.length === 0 ? (
          <p className="muted" role="status">
            Loading...
          </p>
        ) : null}
        {status === 'failed' ? (
          <div className="feed-state feed-state--error" role="alert">
            <span>{error}</span>
            <button type="button" className="button button--small button--ghost" onClick={onRetry}>
              Try again
            </button>
          </div>
        ) : null}
        {status === 'succeeded' && locations.length === 0 ? <p className="feed-state muted">{empty}</p> : null}
        {locations.length > 0 ? (
          <ul className="place-list">
            {locations.map((l) => (
              <li
                key={l.userId}
                className="place-list__item"
                onMouseEnter={() => setFocused(l.userId)}
                onMouseLeave={() => setFocused(null)}
                onFocus={() => setFocused(l.userId)}
                onBlur={() => setFocused(null)}
                data-testid="place"
              >
                <Avatar name={l.user?.name} src={l.user?.avatar} size={28} />
                <div className="place-list__body">
                  {l.user ? <Link to={`/author-profile/${l.user._id}`}>{l.user.name}</Link> : <span>Someone</span>}
                  <span className="muted small">{place(l)}</span>
                </div>
                <span className={`presence ${l.isOnline ? 'presence--online' : ''}`}>
                  <span className="online-dot" aria-hidden="true" />
                  {l.isOnline ? 'Online' : 'Offline'}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </div>
  );
}
