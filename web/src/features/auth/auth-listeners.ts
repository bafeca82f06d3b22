import type { AppStartListening } from '@/app/listeners';
import { socketConnectRequested, socketEvents } from '@/features/socket';
import { checkAuth } from './auth-slice';

/**
 * The server closed the socket itself: a logout or a password change in another browser, or an
 * administrator's block, ended the session — or this tab changed the password and carries on with a new token.
 * The session is checked (a 401 ends it here too, with the guest banner); one that stands gets
 * its socket back. A password change in flight is waited for, so its new token is the one checked.
 */
export function addAuthListeners(startListening: AppStartListening): void {
  startListening({
    actionCreator: socketEvents.serverDisconnected,
    effect: async (_action, api) => {
      // A guest's socket has no session to check.
      if (!api.getState().auth.isAuthenticated) return;
      api.cancelActiveListeners();
      if (api.getState().auth.changingPassword) {
        await api.condition((_a, state) => !state.auth.changingPassword);
      }
      const result = await api.dispatch(checkAuth());
      if (checkAuth.fulfilled.match(result)) {
        api.dispatch(socketConnectRequested({ token: result.payload.token || null }));
      }
    },
  });
}
