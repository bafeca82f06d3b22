/**
 * `/author-profile/{id}`: an author's profile, and for its owner the studio. Tabs (`?tab=`):
 * posts (default), followers, following, achievements; for the owner analytics (per post with
 * `&post=`), map, categories and bank details; for an administrator analytics of anyone (the
 * map of every user's location is the admin dashboard's Locations section). Whoever may not see a
 * tab gets the public profile on a direct link to it.
 */
import { lazy, Suspense, useEffect } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { FeedLinks } from '@/components/feed-links';
import { Page } from '@/components/page';
import { TabList } from '@/components/tab-list';
import { NewsletterForm } from '@/features/follows';
import { fetchUserById, selectSelectedUser } from '@/features/users';
import { PeopleList } from '@/features/users/components/people-list';
import { ProfileHeader } from '@/features/users/components/profile-header';
import { ProfilePosts } from '@/features/users/components/profile-posts';
import { PROFILE_EXTRA_TABS, type ProfileTab, type ProfileTabContext } from '@/features/users/components/profile-tabs';

/** The followers' map (d3) is loaded only when an author opens their Map tab. */
const FollowerMap = lazy(() => import('@/features/maps/follower-map').then((m) => ({ default: m.FollowerMap })));
// The other tabs than the posts load when opened: a reader's first visit needs none of them.
const BadgeBoard = lazy(() => import('@/features/achievements/components/badge-board').then((m) => ({ default: m.BadgeBoard })));
const CategoryManager = lazy(() => import('@/features/categories/components/category-manager').then((m) => ({ default: m.CategoryManager })));
const EngagementPanel = lazy(() => import('@/features/analytics/components/analytics-panel').then((m) => ({ default: m.EngagementPanel })));
const PostStatsPanel = lazy(() => import('@/features/analytics/components/analytics-panel').then((m) => ({ default: m.PostStatsPanel })));

type TabDef = ProfileTab;

function SignInFirst({ what }: { what: string }) {
  return (
    <p className="feed-state muted">
      <Link to="/login">Log in</Link> to see {what}.
    </p>
  );
}

const TABS: TabDef[] = [
  {
    id: 'posts',
    label: 'Posts',
    visible: () => true,
    render: ({ user, own }) => (
      <ProfilePosts userId={user._id} own={own} name={user.name} statsLink={(post) => `/author-profile/${user._id}?tab=analytics&post=${post._id}`} />
    ),
  },
  {
    id: 'followers',
    label: 'Followers',
    visible: () => true,
    render: ({ user, own, signedIn }) =>
      signedIn ? <PeopleList which="followers" userId={user._id} own={own} name={user.name} refreshKey={user.followersCount} /> : <SignInFirst what={`who follows ${user.name}`} />,
  },
  {
    id: 'following',
    label: 'Following',
    visible: () => true,
    render: ({ user, own, signedIn }) =>
      signedIn ? <PeopleList which="following" userId={user._id} own={own} name={user.name} /> : <SignInFirst what={`whom ${user.name} follows`} />,
  },
  {
    id: 'achievements',
    label: 'Achievements',
    visible: () => true,
    render: ({ user, own, signedIn }) => (signedIn ? <BadgeBoard userId={user._id} own={own} /> : <SignInFirst what={`${user.name}’s badges`} />),
  },
  {
    id: 'analytics',
    label: 'Analytics',
    visible: ({ own, isAdmin }) => own || isAdmin,
    render: ({ user, own, postId }) =>
      postId ? (
        <PostStatsPanel postId={postId} backLink={`/author-profile/${user._id}?tab=analytics`} />
      ) : (
        <EngagementPanel userId={own ? undefined : user._id} postLink={(id) => `/author-profile/${user._id}?tab=analytics&post=${id}`} />
      ),
  },
  {
    id: 'map',
    label: 'Map',
    visible: ({ own }) => own,
    render: () => (
      <Suspense fallback={<p className="muted">Loading the map…</p>}>
        <FollowerMap />
      </Suspense>
    ),
  },
  { id: 'categories', label: 'Categories', visible: ({ own }) => own, render: ({ user }) => <CategoryManager userId={user._id} /> },
  ...PROFILE_EXTRA_TABS,
];

export default function AuthorProfilePage() {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const dispatch = useAppDispatch();
  const me = useAppSelector((state) => state.auth.user);
  const isAdmin = useAppSelector((state) => state.auth.role === 'admin');
  const signedIn = useAppSelector((state) => state.auth.isAuthenticated);
  const authInitialized = useAppSelector((state) => state.auth.authInitialized);
  const user = useAppSelector(selectSelectedUser);
  const status = useAppSelector((state) => state.users.selectedStatus);
  const error = useAppSelector((state) => state.users.selectedError);

  // Read once the session is known: what the profile says about the viewer depends on it.
  useEffect(() => {
    if (authInitialized) void dispatch(fetchUserById(id));
  }, [dispatch, id, authInitialized, me?._id]);

  const loaded = user?._id === id ? user : null;
  const own = me?._id === id;
  const ctx: ProfileTabContext | null = loaded ? { user: loaded, own, isAdmin, signedIn, postId: params.get('post') } : null;
  const tabs = ctx ? TABS.filter((t) => t.visible(ctx)) : [];
  const asked = params.get('tab');
  const active = tabs.find((t) => t.id === asked) ?? tabs[0];

  // A tab this viewer may not see (or that does not exist) gives the public profile: decided once
  // the session is known (the page the server painted carries the profile before that, and an
  // owner's own tabs appear only when the app knows it is them).
  useEffect(() => {
    if (authInitialized && loaded && asked && active && active.id !== asked) setParams({}, { replace: true });
  }, [authInitialized, loaded, asked, active, setParams]);

  if (status === 'failed' && !loaded) {
    return (
      <Page title="Profile">
        <div className="feed-state feed-state--error" role="alert">
          <span>{error}</span>
          <button type="button" className="button button--small button--ghost" onClick={() => void dispatch(fetchUserById(id))}>
            Try again
          </button>
        </div>
      </Page>
    );
  }
  if (!loaded || !ctx || !active) {
    return (
      <Page title="Profile">
        <p className="muted page-loading" role="status">
          Loading...
        </p>
      </Page>
    );
  }
  const choose = (tab: string) => setParams(tab === 'posts' ? {} : { tab }, { replace: false });
  return (
    <Page title={own ? 'Your studio' : loaded.name} wide bare>
      <ProfileHeader user={loaded} own={own} />
      <FeedLinks base={`/author-profile/${encodeURIComponent(loaded._id)}`} label={own ? 'Your posts in a feed reader' : `Follow ${loaded.name} in a feed reader`} />
      {signedIn ? null : <NewsletterForm authorId={loaded._id} authorName={loaded.name} />}
      <TabList label={own ? 'Studio' : 'Profile'} tabs={tabs} active={active.id} onChoose={choose} />
      <div role="tabpanel" id={`panel-${active.id}`} aria-labelledby={`tab-${active.id}`} className="profile-panel" key={`${active.id}:${loaded._id}`}>
        <Suspense fallback={<p className="muted" role="status">Loading...</p>}>{active.render(ctx)}</Suspense>
      </div>
    </Page>
  );
}
