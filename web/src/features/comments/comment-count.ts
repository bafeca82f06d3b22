/**
 * A post's comment count for the post page. The page's code loads before the comments' (their
 * slice joins the store with them): until the thread has been read, the post's own count stands.
 */
import type { CommentsState } from './comments-slice';

export function selectCommentCount(state: { comments?: CommentsState }, postId: string, postCount: number): number {
  const thread = state.comments?.byPost[postId];
  return !thread || thread.status === 'idle' ? postCount : thread.count;
}
