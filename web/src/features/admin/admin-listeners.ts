import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { RootState } from '@/app/store';
import { fetchContactMessages, fetchOverview, fetchReports } from './admin-slice';

/**
 * An administrator's data loads when their session joins `adminRoom` (seed 001 §6): the
 * overview figures and the first pages of contact messages and reports, which the live events
 * then keep current. Called by the listener of admin-entry.ts once this module has loaded.
 */
export async function loadAdminData(dispatch: ThunkDispatch<RootState, unknown, UnknownAction>): Promise<void> {
  await Promise.all([dispatch(fetchOverview()), dispatch(fetchContactMessages(1)), dispatch(fetchReports(1))]);
}
