import { useParams } from 'react-router-dom';
import { Page } from '@/components/page';
import { FeedLinks } from '@/components/feed-links';
import { PostFeed } from '@/components/post-feed';
import { usePostList } from '../use-post-list';

/** Posts with a tag (tags are lowercase; the server normalises the one asked for). */
export default function TagPage() {
  const { tag = '' } = useParams();
  const normalised = tag.trim().replace(/^#/, '').toLowerCase();
  const { feed, loadMore, retry } = usePostList('publicPosts', { tag: normalised });
  return (
    <Page title={`#${normalised}`} wide>
      <FeedLinks base={`/tag/${encodeURIComponent(normalised)}`} label={`Follow #${normalised} in a feed reader`} />
      <PostFeed feed={feed} onLoadMore={loadMore} onRetry={retry} label={`Posts tagged ${normalised}`} empty="No posts with this tag yet." />
    </Page>
  );
}
