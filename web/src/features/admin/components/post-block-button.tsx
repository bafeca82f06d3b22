/**
 * "Block post" / "Unblock post" on a post page, for administrators (loaded only for them, as the
 * rest of the administrators' area): toggles the block and sets it on the open post.
 */
import { usePatchAdminPostsBlockByIdMutation } from '@/api/endpoints';
import { useAppDispatch } from '@/app/hooks';
import { currentPostBlockedSet } from '@/features/posts';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import type { Post } from '@/types/entities';
import { ADMIN_FALLBACK } from '../admin-api';
import { messageSaysBlocked } from '../state/users-slice';

export function PostBlockButton({ post }: { post: Post }) {
  const dispatch = useAppDispatch();
  const [toggleBlock, { isLoading: busy }] = usePatchAdminPostsBlockByIdMutation();
  const toggle = async () => {
    try {
      const r = await toggleBlock({ id: post._id }).unwrap();
      dispatch(currentPostBlockedSet(typeof r.blocked === 'boolean' ? r.blocked : messageSaysBlocked(r.message)));
    } catch (e) {
      toast.error(errorMessage(e, ADMIN_FALLBACK.toggleBlockPost));
    }
  };
  return (
    <button type="button" className="button button--small button--ghost" disabled={busy} onClick={() => void toggle()}>
      {post.blocked ? 'Unblock post' : 'Block post'}
    </button>
  );
}
