/**
 * Achievements (seed 001 §3 "Achievements": badges list, metrics): the badges a user holds and
 * every badge of the catalogue with what it needs and how far the user is. The signed-in user's
 * own are recalculated (`POST /achievement/achievements/calculate`); another user's are read
 * (`GET /achievement/achievements?userId=`), both through the generated endpoints.
 */
import type { ProgressView } from '@/api/endpoints';

export const ACHIEVEMENT_FALLBACK = {
  fetch: 'Failed to fetch achievements',
  calculate: 'Failed to calculate achievements',
} as const;

/** A badge of the catalogue with the user's standing. */
export type BadgeProgress = ProgressView;
