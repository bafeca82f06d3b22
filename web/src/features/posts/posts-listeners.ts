import type { AppStartListening } from '@/app/listeners';
import { socketEvents } from '@/features/socket';
import { countsIn, fetchPostCounts, postHiddenFromViewer } from './posts-slice';

export function addPostsListeners(startListening: AppStartListening): void {
  // `postCountsUpdated` without any count (`{}`): the counts changed, fetch them.
  startListening({
    actionCreator: socketEvents.postCountsUpdated,
    effect: (action, api) => {
      if (Object.keys(countsIn(action.payload)).length === 0) void api.dispatch(fetchPostCounts());
    },
  });

  // A post blocked by an administrator disappears for readers who may no longer see it (only
  // its author and administrators still may).
  startListening({
    actionCreator: socketEvents.postBlockToggled,
    effect: (action, api) => {
      const { postId, blocked } = action.payload;
      if (!blocked) return;
      const { auth, posts } = api.getState();
      if (auth.isAuthenticated && auth.role === 'admin') return;
      const copies = [posts.currentPost, ...Object.values(posts.lists).map((l) => l.items.entities[postId])].filter((p) => p?._id === postId);
      const mine = copies.some((p) => p?.author?._id && p.author._id === auth.user?._id);
      if (copies.length > 0 && !mine) api.dispatch(postHiddenFromViewer(postId));
    },
  });
}
