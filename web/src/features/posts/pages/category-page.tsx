import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { preloadedCategory } from '@/app/initial-data';
import { Page } from '@/components/page';
import { FeedLinks } from '@/components/feed-links';
import { PostFeed } from '@/components/post-feed';
import { fetchCategories, selectCategories } from '@/features/categories';
import { usePostList } from '../use-post-list';

/** Posts of one category (links use the slug). */
export default function CategoryPage() {
  const { category = '' } = useParams();
  const dispatch = useAppDispatch();
  const { categories, userSelectedCategories } = useAppSelector(selectCategories);
  const { feed, loadMore, retry } = usePostList('publicPosts', { category });
  // The category the server's page named stands in until the list of categories arrives.
  const known = [...categories, ...userSelectedCategories].find((c) => c.slug === category) ?? preloadedCategory(category);
  const fromPosts = feed.items.find((p) => p.category?.slug === category)?.category;
  const name = known?.name ?? fromPosts?.name ?? category;

  useEffect(() => {
    void dispatch(fetchCategories());
  }, [dispatch]);

  return (
    <Page title={name} wide>
      {known?.description ? <p className="lead muted">{known.description}</p> : null}
      <FeedLinks base={`/category/${encodeURIComponent(category)}`} label={`Follow ${name} in a feed reader`} />
      <PostFeed feed={feed} onLoadMore={loadMore} onRetry={retry} label={`Posts in ${name}`} empty="No posts in this category yet." />
    </Page>
  );
}
