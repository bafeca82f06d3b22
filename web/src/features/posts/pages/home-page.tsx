import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Page } from '@/components/page';
import { PostFeed } from '@/components/post-feed';
import { TabList } from '@/components/tab-list';
import { compactCount } from '@/lib/format';
import { fetchPostCounts, selectPostCounts, type ListKey } from '../posts-slice';
import { usePostList } from '../use-post-list';

interface Tab {
  id: string;
  label: string;
  list: ListKey;
  signedIn?: boolean;
  empty: string;
}

export const HOME_TABS: Tab[] = [
  { id: 'latest', label: 'Latest', list: 'latestPosts', empty: 'No posts yet. Be the first to write one!' },
  { id: 'trending', label: 'Trending', list: 'trendingPosts', empty: 'Nothing is trending yet.' },
  { id: 'following', label: 'Following', list: 'followingPosts', signedIn: true, empty: 'Posts of the authors you follow (and yours) appear here.' },
  { id: 'all', label: 'All posts', list: 'posts', signedIn: true, empty: 'No posts yet.' },
];

function TabPanel({ tab }: { tab: Tab }) {
  const { feed, loadMore, retry } = usePostList(tab.list);
  return (
    <div role="tabpanel" id={`panel-${tab.id}`} aria-labelledby={`tab-${tab.id}`}>
      <PostFeed feed={feed} onLoadMore={loadMore} onRetry={retry} empty={tab.empty} label={`${tab.label} posts`} />
    </div>
  );
}

/** The main page: Latest, Trending, and for signed-in readers Following and All posts, with live counts. */
export default function HomePage() {
  const dispatch = useAppDispatch();
  const [params, setParams] = useSearchParams();
  const { isAuthenticated, authInitialized } = useAppSelector((state) => state.auth);
  const counts = useAppSelector(selectPostCounts);
  const tabs = HOME_TABS.filter((t) => !t.signedIn || isAuthenticated);
  const active = tabs.find((t) => t.id === params.get('tab')) ?? tabs[0];

  useEffect(() => {
    if (authInitialized) void dispatch(fetchPostCounts());
  }, [dispatch, authInitialized, isAuthenticated]);

  const choose = (id: string) => setParams(id === 'latest' ? {} : { tab: id }, { replace: true });

  return (
    <Page title="Stories" wide>
      <div className="home-head">
        <TabList label="Feeds" tabs={tabs} active={active.id} onChoose={choose} />
        <dl className="post-counts" aria-label="Post counts" data-testid="post-counts">
          <div>
            <dt>All</dt>
            <dd data-testid="count-all">{compactCount(counts.allPostsCount)}</dd>
          </div>
          {isAuthenticated ? (
            <>
              <div>
                <dt>Mine</dt>
                <dd data-testid="count-mine">{compactCount(counts.myPostsCount)}</dd>
              </div>
              <div>
                <dt>Following</dt>
                <dd data-testid="count-following">{compactCount(counts.followingPostsCount)}</dd>
              </div>
            </>
          ) : null}
        </dl>
      </div>
      <TabPanel key={active.id} tab={active} />
    </Page>
  );
}
