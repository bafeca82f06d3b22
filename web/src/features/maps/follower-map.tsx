import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { fetchAllFollowerLocations, selectFollowerLocations } from '@/features/follows';
import { PreciseLocationControl } from '@/features/location';
import { LocationsMap } from './locations-map';

/**
 * The signed-in author's followers on the map: every page of `/follow/follower-locations`
 * (offline ones included), online ones lit live, points moved live.
 */
export function FollowerMap() {
  const dispatch = useAppDispatch();
  const locations = useAppSelector(selectFollowerLocations);
  useEffect(() => {
    void dispatch(fetchAllFollowerLocations());
  }, [dispatch]);
  const online = locations.list.filter((l) => l.isOnline).length;
  return (
    <>
      <PreciseLocationControl variant="prompt" />
      <LocationsMap
      title="Where your followers are"
      locations={locations.list}
      status={locations.status}
      error={locations.error}
      onRetry={() => void dispatch(fetchAllFollowerLocations())}
      empty="None of your followers has shared a location yet."
      summary={
        locations.count > 0 ? (
          <>
            {locations.count} {locations.count === 1 ? 'follower' : 'followers'} on the map, {online} online
          </>
        ) : null
      }
      />
    </>
  );
}
