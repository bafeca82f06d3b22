import { useAppSelector } from '@/app/hooks';
import { flagEmoji } from '@/lib/format';
import { selectIpLocation } from '../location-slice';

/** The country flag and name of the visitor's location, when known. */
export function LocationBadge() {
  const location = useAppSelector(selectIpLocation);
  if (!location || !location.country || location.country === 'Unknown') return null;
  const flag = flagEmoji(location.countryCode);
  return (
    <span className="location-badge" title={[location.city, location.state, location.country].filter((x) => x && x !== 'Unknown').join(', ')}>
      {flag ? <span aria-hidden="true">{flag} </span> : null}
      <span>{location.country}</span>
    </span>
  );
}
