import type { AppStartListening } from '@/app/listeners';
import { socketEvents } from '@/features/socket';
import { countsIn, fetchPostCounts } from './posts-slice';

export function addPostsListeners(startListening: AppStartListening): void {
  // `postCountsUpdated` without any count (`{}`): the counts changed, fetch them.
  startListening({
    actionCreator: socketEvents.postCountsUpdated,
    effect: (action, api) => {
      if (Object.keys(countsIn(action.payload)).length === 0) void api.dispatch(fetchPostCounts());
    },
  });
}
