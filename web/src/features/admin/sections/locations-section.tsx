/**
 * Locations: every user's latest location on the world map the follower map uses (d3-geo over
 * the server's outlines with India's border; online users lit and moves merged live), the
 * places beside it, and below the same places as a paged table with coordinates and times.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { AllLocationsMap } from '@/features/maps';
import { relativeTime } from '@/lib/format';
import { errorMessage, http } from '@/lib/http';
import type { UserLocation } from '@/types/entities';
import { ListState } from '../components/list-state';
import { Pager } from '../components/pager';
import type { Status } from '../admin-types';

export const LOCATIONS_FALLBACK = 'Failed to fetch user locations';
const TABLE_PAGE = 12;

type Located = UserLocation & { user?: { _id: string; name: string } | null };
interface Page {
  locations: Located[];
  total: number;
  totalPages: number;
  page: number;
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
  const [tablePage, setTablePage] = useState(1);
  const table = usePage(tablePage, TABLE_PAGE);

  return (
    <>
      <AllLocationsMap />
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
