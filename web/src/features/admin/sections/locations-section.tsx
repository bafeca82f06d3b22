/**
 * Locations: every user's latest location on the world map the follower map uses (d3-geo over
 * the server's outlines with India's border; online users lit and moves merged live), the
 * places beside it, and below the same places as a paged table with coordinates and times.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useGetUserLocationsQuery } from '@/api/endpoints';
import { AllLocationsMap } from '@/features/maps';
import { relativeTime } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { AdminTable, type Column } from '../components/admin-table';
import type { PlacedLocation, Status } from '../admin-types';

export const LOCATIONS_FALLBACK = 'Failed to fetch user locations';
const TABLE_PAGE = 12;

type Located = PlacedLocation;

function usePage(page: number, limit: number) {
  const { data, error, isFetching, isSuccess, refetch } = useGetUserLocationsQuery({ page, limit });
  const status: Status = isFetching ? 'loading' : error ? 'failed' : isSuccess ? 'succeeded' : 'idle';
  return {
    data: error && !isFetching ? null : (data ?? null),
    status,
    error: error && !isFetching ? errorMessage(error, LOCATIONS_FALLBACK) : null,
    retry: () => void refetch(),
  };
}

const COLUMNS: Column<Located>[] = [
  { header: 'User', cell: (l) => (l.user ? <Link to={`/author-profile/${l.user._id}`}>{l.user.name}</Link> : 'Deleted user') },
  { header: 'Place', cell: (l) => [l.city, l.state, l.country].filter(Boolean).join(', ') || '—' },
  {
    header: 'Coordinates',
    cell: (l) => (
      <>
        {l.coordinates.lat.toFixed(2)}, {l.coordinates.lon.toFixed(2)}
      </>
    ),
  },
  { header: 'Updated', cell: (l) => relativeTime(l.timestamp) },
];

export function LocationsSection() {
  const [tablePage, setTablePage] = useState(1);
  const table = usePage(tablePage, TABLE_PAGE);

  return (
    <>
      <AllLocationsMap />
      <h3>All locations</h3>
      <AdminTable
        list={{ items: table.data?.locations ?? [], page: tablePage, totalPages: table.data?.totalPages ?? 0, status: table.status, error: table.error }}
        label="Locations"
        caption="User locations, newest first"
        columns={COLUMNS}
        rowKey={(l) => l.userId}
        emptyText="No user has shared a location yet."
        busyWhileLoading
        onRetry={table.retry}
        onPage={setTablePage}
      />
    </>
  );
}
