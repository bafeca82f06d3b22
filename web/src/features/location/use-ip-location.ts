import { useEffect, useRef } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { fetchIpLocation } from './location-slice';

/** Pauses before the next try after a failed IP track (then it waits for the browser to come online). */
export const IP_TRACK_RETRY_MS = [15_000, 30_000, 60_000, 120_000] as const;

/**
 * The visitor's IP location: fetched once at start and cached. A failed track resets `tracked`
 * (seed 000 §8), and is tried again after a pause (15 s, 30 s, 1 min, 2 min) and whenever the
 * browser comes back online.
 */
export function useIpLocation(): void {
  const dispatch = useAppDispatch();
  const failed = useAppSelector((state) => state.location.ipLocation === null && !state.location.tracked && state.location.error !== null);
  const retries = useRef(0);

  useEffect(() => {
    void dispatch(fetchIpLocation());
    const retry = () => void dispatch(fetchIpLocation());
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [dispatch]);

  useEffect(() => {
    if (!failed || retries.current >= IP_TRACK_RETRY_MS.length) return;
    const timer = setTimeout(() => {
      retries.current += 1;
      void dispatch(fetchIpLocation());
    }, IP_TRACK_RETRY_MS[retries.current]);
    return () => clearTimeout(timer);
  }, [dispatch, failed]);
}
