import { useEffect } from 'react';
import { useAppDispatch, useAppSelector, useAppStore } from '@/app/hooks';
import type { AppDispatch, RootState } from '@/app/store';
import { emitWhenConnected } from '@/lib/socket';
import { storage } from '@/lib/storage';
import {
  GEOLOCATION_TIMEOUT_MS,
  GEOLOCATION_UNSUPPORTED,
  PRECISE_LOCATION_KEY,
  geolocationFailed,
  preciseChoiceChanged,
  saveLocation,
  type PreciseChoice,
} from './location-slice';

export const LOCATION_DEBOUNCE_MS = 1000;
/** GeolocationPositionError.PERMISSION_DENIED. */
const PERMISSION_DENIED = 1;

/** Records the person's choice (local storage and state). */
export function choosePrecise(dispatch: AppDispatch, choice: PreciseChoice): void {
  if (choice) storage.set(PRECISE_LOCATION_KEY, choice);
  else storage.remove(PRECISE_LOCATION_KEY);
  dispatch(preciseChoiceChanged(choice));
}

let pendingEmit: ReturnType<typeof setTimeout> | undefined;

/**
 * Asks the browser for the position (high accuracy, 30 s time-out), saves it and shares it live
 * (debounced 1 s). A refusal is remembered as 'declined' (never asked again); every error goes
 * to the location toast, which only someone who chose to share can therefore see.
 */
export function requestPrecisePosition(dispatch: AppDispatch, getState: () => RootState): void {
  const user = getState().auth.user;
  if (!user) return;
  if (!('geolocation' in navigator) || !navigator.geolocation) {
    dispatch(geolocationFailed(GEOLOCATION_UNSUPPORTED));
    return;
  }
  navigator.geolocation.getCurrentPosition(
    (position) => {
      const ip = getState().location.ipLocation;
      const location = {
        userId: user._id,
        coordinates: { lat: position.coords.latitude, lon: position.coords.longitude },
        city: ip?.city || 'Unknown',
        country: ip?.country || 'Unknown',
        state: ip?.state || 'Unknown',
        pincode: ip?.pincode || 'Unknown',
        countryCode: ip?.countryCode,
        timestamp: new Date().toISOString(),
      };
      void dispatch(saveLocation(location));
      if (pendingEmit) clearTimeout(pendingEmit);
      pendingEmit = setTimeout(() => {
        // Sent now, or as soon as the socket connects if it is not connected at this moment.
        emitWhenConnected('userLocationUpdate', { ...location, lat: location.coordinates.lat, lon: location.coordinates.lon });
      }, LOCATION_DEBOUNCE_MS);
    },
    (error) => {
      if (error.code === PERMISSION_DENIED) choosePrecise(dispatch, 'declined');
      dispatch(geolocationFailed(error.message || 'Unable to get your location.'));
    },
    { enableHighAccuracy: true, timeout: GEOLOCATION_TIMEOUT_MS, maximumAge: 0 },
  );
}

/** The person chose to share their precise position: remember it and ask the browser now. */
export function sharePreciseLocation(dispatch: AppDispatch, getState: () => RootState): void {
  choosePrecise(dispatch, 'shared');
  requestPrecisePosition(dispatch, getState);
}

/** Whether the browser already lets this site read the position without a prompt. */
async function permissionState(): Promise<PermissionState | null> {
  try {
    if (!navigator.permissions?.query) return null;
    return (await navigator.permissions.query({ name: 'geolocation' })).state;
  } catch {
    return null;
  }
}

/**
 * Nothing is asked on page load. For a signed-in person who chose to share, the position is
 * refreshed once per page load only when the browser already grants it (no prompt); a permission
 * since withdrawn in the browser turns the choice into 'declined', silently.
 */
export function useGeolocation(): void {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const userId = useAppSelector((state) => state.auth.user?._id ?? null);
  const choice = useAppSelector((state) => state.location.preciseChoice);

  useEffect(() => {
    if (!userId || choice !== 'shared') return;
    let cancelled = false;
    void permissionState().then((state) => {
      if (cancelled) return;
      if (state === 'granted') requestPrecisePosition(dispatch, () => store.getState());
      else if (state === 'denied') choosePrecise(dispatch, 'declined');
    });
    return () => {
      cancelled = true;
    };
    // Once per signed-in user and page load, not again when the choice is made in this page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId, dispatch]);
}
