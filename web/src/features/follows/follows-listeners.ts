import type { AppStartListening } from '@/app/listeners';
import { fetchFollowStatus, followUser, unfollowUser } from './follows-slice';

/**
 * A follow or unfollow, once answered (or failed), is reconciled with the follow status the
 * server holds (seed 001 §4 "A follow-status result reconciles the list").
 */
export function addFollowsListeners(startListening: AppStartListening): void {
  startListening({
    predicate: (action) =>
      followUser.fulfilled.match(action) || followUser.rejected.match(action) || unfollowUser.fulfilled.match(action) || unfollowUser.rejected.match(action),
    effect: async (action, api) => {
      const arg = (action as ReturnType<typeof followUser.fulfilled> | ReturnType<typeof unfollowUser.fulfilled>).meta.arg;
      const userId = 'user' in arg ? arg.user._id : arg.userId;
      await api.dispatch(fetchFollowStatus(userId));
    },
  });
}
