import { isAnyOf } from '@reduxjs/toolkit';
import type { AppStartListening } from '@/app/listeners';
import { toast } from '@/lib/toast';
import { postCountersChanged } from '@/features/posts';
import { ENGAGEMENT_FALLBACK, sharePost, toggleBookmark, toggleLike, votePoll } from './interactions-slice';

export function addEngagementListeners(startListening: AppStartListening): void {
  // Every copy of the post (cards in feeds, the open post) shows the counts the server gave.
  startListening({
    matcher: isAnyOf(toggleLike.fulfilled, toggleBookmark.fulfilled, sharePost.fulfilled),
    effect: (raw, api) => {
      const action = raw as ReturnType<typeof toggleLike.fulfilled | typeof toggleBookmark.fulfilled | typeof sharePost.fulfilled>;
      const postId = action.meta.arg.postId;
      const payload = action.payload as { likesCount?: number; bookmarksCount?: number; shareCount?: number };
      const changes: Record<string, number> = {};
      for (const key of ['likesCount', 'bookmarksCount', 'shareCount'] as const) {
        const value = payload[key];
        if (typeof value === 'number') changes[key] = value;
      }
      api.dispatch(postCountersChanged({ postId, changes }));
    },
  });

  // A failed like, bookmark, share or vote is said once, with the server's message or the spec's.
  startListening({
    matcher: isAnyOf(toggleLike.rejected, toggleBookmark.rejected, sharePost.rejected, votePoll.rejected),
    effect: (raw) => {
      const action = raw as ReturnType<typeof toggleLike.rejected>;
      if (action.meta.condition) return;
      const fallback = toggleLike.rejected.match(action)
        ? ENGAGEMENT_FALLBACK.like
        : toggleBookmark.rejected.match(action)
          ? ENGAGEMENT_FALLBACK.bookmark
          : sharePost.rejected.match(action)
            ? ENGAGEMENT_FALLBACK.share
            : ENGAGEMENT_FALLBACK.vote;
      toast.error(action.payload ?? fallback);
    },
  });
}
