/**
 * What the post page shows under a post: the support card and the supporters list. Loaded on
 * demand (lazy.ts), so neither the card nor RTK Query is part of a reader's first load.
 */
import { useGetTipsOptionsByPostIdQuery } from '@/api/endpoints';
import { useAppSelector } from '@/app/hooks';
import { SIGN_IN_REASON } from '../tips-api';
import { SupportCard, type TipPost } from './support-card';
import { SupportersList } from './supporters-list';

export function TipSection({ post }: { post: TipPost }) {
  const { data: options } = useGetTipsOptionsByPostIdQuery({ postId: post._id });
  const userId = useAppSelector((s) => s.auth.user?._id ?? null);
  const authorId = post.author?._id ?? null;
  const tippable = Boolean(options && (options.enabled || options.reason === SIGN_IN_REASON));
  return (
    <div className="tip-section" data-testid="tip-section">
      <SupportCard post={post} placement="end" />
      <SupportersList postId={post._id} authorId={authorId} showEmpty={tippable || (userId !== null && userId === authorId)} />
    </div>
  );
}

/** The card where the writer put a `tip` block in the post's body. */
export function TipBlock({ post }: { post: TipPost }) {
  return <SupportCard post={post} placement="body" />;
}

export default TipSection;
