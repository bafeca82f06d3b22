export * from './location-slice';
export { LocationBadge } from './components/location-badge';
export { LocationErrorToast } from './components/location-error-toast';
export { useGeolocation } from './use-geolocation';
export { useIpLocation, IP_TRACK_RETRY_MS } from './use-ip-location';
export { PreciseLocationControl } from './components/precise-location-control';
export { sharePreciseLocation, choosePrecise } from './use-geolocation';
