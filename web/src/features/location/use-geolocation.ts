import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { emitWhenConnected } from '@/lib/socket';
import { sessionStore } from '@/lib/storage';
import { GEOLOCATION_TIMEOUT_MS, GEOLOCATION_UNSUPPORTED, geolocationFailed, saveLocation } from './location-slice';

export const LOCATION_DEBOUNCE_MS = 1000;
const ASKED_KEY = 'geolocationRequested';

/**
 * Lets the next page load ask the browser again (the location error toast reloads the page
 * for exactly that; the once-per-session flag would otherwise survive the reload).
 */
export function forgetGeolocationRequest(): void {
  sessionStore.remove(ASKED_KEY);
}

/**
 * For signed-in users, asks the browser for the position once per browser session (high accuracy,
 * 30 s time-out), saves it and shares it live (debounced 1 s). Errors go to the location toast.
 */
export function useGeolocation(): void {
  const dispatch = useAppDispatch();
  const user = useAppSelector((state) => state.auth.user);
  const ipLocation = useAppSelector((state) => state.location.ipLocation);

  useEffect(() => {
    if (!user || sessionStore.get(ASKED_KEY) === user._id) return;
    sessionStore.set(ASKED_KEY, user._id);
    if (!('geolocation' in navigator) || !navigator.geolocation) {
      dispatch(geolocationFailed(GEOLOCATION_UNSUPPORTED));
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    navigator.geolocation.getCurrentPosition(
      (position) => {
        const location = {
          userId: user._id,
          coordinates: { lat: position.coords.latitude, lon: position.coords.longitude },
          city: ipLocation?.city || 'Unknown',
          country: ipLocation?.country || 'Unknown',
          state: ipLocation?.state || 'Unknown',
          pincode: ipLocation?.pincode || 'Unknown',
          countryCode: ipLocation?.countryCode,
          timestamp: new Date().toISOString(),
        };
        void dispatch(saveLocation(location));
        timer = setTimeout(() => {
          // Sent now, or as soon as the socket connects if it is not connected at this moment.
          emitWhenConnected('userLocationUpdate', { ...location, lat: location.coordinates.lat, lon: location.coordinates.lon });
        }, LOCATION_DEBOUNCE_MS);
      },
      (error) => dispatch(geolocationFailed(error.message || 'Unable to get your location.')),
      { enableHighAccuracy: true, timeout: GEOLOCATION_TIMEOUT_MS, maximumAge: 0 },
    );
    return () => {
      if (timer) clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user?._id, dispatch]);
}
