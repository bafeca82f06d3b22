import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Page } from '@/components/page';
import { PostFeed } from '@/components/post-feed';
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
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});

  useEffect(() => {
    if (authInitialized) void dispatch(fetchPostCounts());
  }, [dispatch, authInitialized, isAuthenticated]);

  const choose = (tab: Tab, focus = false) => {
    setParams(tab.id === 'latest' ? {} : { tab: tab.id }, { replace: true });
    if (focus) tabRefs.current[tab.id]?.focus();
  };

  // Arrow keys move between tabs (the WAI-ARIA tabs pattern).
  const onKeyDown = (event: KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.id === active.id);
    const next = event.key === 'ArrowRight' ? tabs[(i + 1) % tabs.length] : event.key === 'ArrowLeft' ? tabs[(i - 1 + tabs.length) % tabs.length] : null;
    if (next) {
      event.preventDefault();
      choose(next, true);
    }
  };

  return (
    <Page title="Stories" wide>
      <div className="home-head">
        <div role="tablist" aria-label="Feeds" className="tabs" onKeyDown={onKeyDown}>
          {tabs.map((tab) => (
            <button
              key={tab.id}
              ref={(el) => (tabRefs.current[tab.id] = el)}
              type="button"
              role="tab"
              id={`tab-${tab.id}`}
              aria-controls={`panel-${tab.id}`}
              aria-selected={tab.id === active.id}
              tabIndex={tab.id === active.id ? 0 : -1}
              className={`tab ${tab.id === active.id ? 'tab--active' : ''}`}
              onClick={() => choose(tab)}
            >
              {tab.label}
            </button>
          ))}
        </div>
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
