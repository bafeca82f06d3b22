/**
 * Analytics (seed 001 §3 "Analytics", §4 "Analytics fetches go idle, loading, succeeded or
 * failed"): an author's engagement over time (`GET /post/analytics/user-engagement`) and one
 * post's numbers (`GET /post/analytics/post/{id}`), read through the generated endpoints, whose
 * status (uninitialized, pending, fulfilled, rejected) is the spec's.
 */
import type { Day } from '@/api/endpoints';

export const ANALYTICS_FALLBACK = {
  post: 'Failed to fetch post stats',
  user: 'Failed to fetch user engagement stats',
} as const;
/** Days the charts cover by default. */
export const ANALYTICS_DAYS = 30;

/** One UTC day of a series (reading time in seconds). */
export type DayStats = Day;
