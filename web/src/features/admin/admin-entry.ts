/**
 * The administrators' area as the first load knows it: nothing of its code, only the listener
 * that loads it when an administrator's session joins adminRoom (seed 001 §6). The area's
 * reducers join the store when its modules load (app/store.ts `injectReducers`).
 */
import type { AppStartListening } from '@/app/listeners';
import { initUserSocket } from '@/features/socket';

export function addAdminListeners(startListening: AppStartListening) {
  startListening({
    actionCreator: initUserSocket.fulfilled,
    effect: async (action, api) => {
      if (action.payload.role !== 'admin') return;
      const { loadAdminData } = await import('./admin-listeners');
      await loadAdminData(api.dispatch);
    },
  });
}
