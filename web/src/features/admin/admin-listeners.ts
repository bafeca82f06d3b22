import type { AppStartListening } from '@/app/listeners';
import { initUserSocket } from '@/features/socket';
import { fetchContactMessages, fetchOverview, fetchReports } from './admin-slice';

/**
 * An administrator's data loads when their session joins `adminRoom` (seed 001 §6): the
 * overview figures and the first pages of contact messages and reports, which the live events
 * then keep current.
 */
export function addAdminListeners(startListening: AppStartListening) {
  startListening({
    actionCreator: initUserSocket.fulfilled,
    effect: async (action, api) => {
      if (action.payload.role !== 'admin') return;
      await Promise.all([api.dispatch(fetchOverview()), api.dispatch(fetchContactMessages(1)), api.dispatch(fetchReports(1))]);
    },
  });
}
