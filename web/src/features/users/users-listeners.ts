import type { AppStartListening } from '@/app/listeners';
import { userErrorCleared, USER_ERROR_CLEAR_MS } from './users-slice';

/** A user error state clears after 3 seconds (seed 000 §8); a newer error gets its own 3 seconds. */
export function addUsersListeners(startListening: AppStartListening): void {
  startListening({
    predicate: (_action, current, previous) => current.users.error !== null && current.users.error !== previous.users.error,
    effect: async (_action, api) => {
      api.cancelActiveListeners();
      await api.delay(USER_ERROR_CLEAR_MS);
      api.dispatch(userErrorCleared());
    },
  });
}
