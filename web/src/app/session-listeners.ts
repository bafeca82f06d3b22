import { checkAuth } from '@/features/auth';
import { socketEvents } from '@/features/socket';
import type { AppStartListening } from './listeners';

/**
 * When the server ends a signed-in socket on purpose (an administrator blocked the account, the
 * session was revoked elsewhere), the session is checked at once: a 401 signs the tab out
 * (the shell then says 'Viewing as guest. Log in for full features.'), anything else keeps it.
 */
export function addSessionListeners(startListening: AppStartListening) {
  startListening({
    actionCreator: socketEvents.serverDisconnected,
    effect: async (_, api) => {
      if (api.getState().auth.isAuthenticated) await api.dispatch(checkAuth());
    },
  });
}
