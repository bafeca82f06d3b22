import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { fetchUserLocations, selectUserLocations } from '@/features/location';
import { LocationsMap } from './locations-map';

/**
 * Every user's latest location (administrators): `/user/locations` page after page, up to the
 * 500 kept. The admin dashboard's Locations section shows it.
 */
export function AllLocationsMap() {
  const dispatch = useAppDispatch();
  const locations = useAppSelector(selectUserLocations);
  const meta = useAppSelector((state) => state.location.userLocationsMeta);
  useEffect(() => {
    void dispatch(fetchUserLocations());
  }, [dispatch]);
  const online = locations.filter((l) => l.isOnline).length;
  return (
    <LocationsMap
      title="Where users are"
      locations={locations}
      status={meta.status}
      error={meta.error}
      onRetry={() => void dispatch(fetchUserLocations())}
      empty="No user has shared a location yet."
      summary={
        meta.total > 0 ? (
          <>
            {meta.total} {meta.total === 1 ? 'user' : 'users'} with a location, {online} online
          </>
        ) : null
      }
    />
  );
}
