import { lazy, memo, Suspense, useCallback, useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { AfterPaint } from '@/components/after-paint';
import { Avatar } from '@/components/avatar';
import { PostBlocks } from '@/components/blocks/post-blocks';
import { Page } from '@/components/page';
import { CategoryPill, TagList } from '@/components/post-meta';
import { ResponsiveImage } from '@/components/responsive-image';
import { WhenNear } from '@/components/when-near';
import { selectCommentCount } from '@/features/comments/comment-count';
import { EngagementBar, PollBlock, trackView, useReadingTracker } from '@/features/engagement';
import { FollowButton, NewsletterForm } from '@/features/follows';
import { useQueuedComments } from '@/features/offline';
import { SeriesBar, SeriesEnd } from '@/features/series';
import { loadTipSection } from '@/features/tips/lazy';
import { formatDate, readingTimeLabel } from '@/lib/format';
import type { Block, Post } from '@/types/entities';

/** The comments sit below the article: their code loads after the page's (the thread loads its own data anyway). */
const CommentsSection = lazy(() => import('@/features/comments/components/comments-section').then((m) => ({ default: m.CommentsSection })));

/** The report dialog is moderation code: loaded only for a signed-in reader who may report. */
const ReportPostButton = lazy(() =>
  import('@/features/admin/components/report-post').then((m) => ({ default: m.ReportPostButton })),
);

/** The support card and the supporters list: their code (and RTK Query's) loads after the page's. */
const TipSection = lazy(() => loadTipSection().then((m) => ({ default: m.TipSection })));
const TipBlock = lazy(() => loadTipSection().then((m) => ({ default: m.TipBlock })));

/** The alerts bell is for a signed-in follower of the author: its code loads only for a signed-in reader. */
const AuthorAlertsMenu = lazy(() => import('@/features/follows/components/alerts-menu').then((m) => ({ default: m.AuthorAlertsMenu })));

/** Administrators block or unblock the open post from here too (the administrators' area's code). */
const PostBlockButton = lazy(() => import('@/features/admin/components/post-block-button').then((m) => ({ default: m.PostBlockButton })));
import { fetchPost, POST_FALLBACK, selectPosts } from '@/features/posts';
import { SuggestedPosts } from '@/features/posts/components/suggested-posts';

/** Only the author of a blocked post sees the appeal form. */
const AppealForm = lazy(() => import('@/features/posts/components/appeal-form').then((m) => ({ default: m.AppealForm })));

/** A post without blocks (one array, so the memoised body sees no change). */
const NO_BLOCKS: Block[] = [];

export const BLOCKED_NOTICE = 'This post has been blocked by an administrator.';
export const LOCKED_NOTICE = 'This post is for subscribers only.';

/** A subscribers-only post the viewer may not read: its teaser stands, and the way to subscribe. */
function LockedNotice({ post, signedIn }: { post: Post; signedIn: boolean }) {
  return (
    <div className="notice notice--locked" role="note" data-testid="locked-post">
      <p>
        <strong>{LOCKED_NOTICE}</strong> {post.excerpt ? <span className="muted">{post.excerpt}</span> : null}
      </p>
      {post.author ? (
        <Link to={signedIn ? `/plans/${post.author._id}` : '/login'} className="button">
          {signedIn ? `Subscribe to ${post.author.name} to read on` : 'Log in to subscribe'}
        </Link>
      ) : null}
    </div>
  );
}

/** The article and everything under it; drawn again only when the post itself changes. */
const PostView = memo(function PostView({ post }: { post: Post }) {
  const dispatch = useAppDispatch();
  const { user, role } = useAppSelector((state) => state.auth);
  // Comments written offline count as the thread shows them, until they are sent.
  const commentCount = useAppSelector((state) => selectCommentCount(state, post._id, post.commentsCount ?? 0)) + useQueuedComments(post._id).length;
  const isAuthor = Boolean(user && post.author && user._id === post.author._id);
  const isAdmin = role === 'admin';
  const counted = useRef<string | null>(null);

  useReadingTracker(post._id);

  // A view is counted once per visit of the page.
  useEffect(() => {
    if (counted.current === post.slug) return;
    counted.current = post.slug;
    void dispatch(trackView({ slug: post.slug }));
  }, [dispatch, post.slug]);

  // Stable while the post is the same one, so the memoised body is not drawn again for a count
  // (the support card reads the post as it is when drawn).
  const renderPoll = useCallback((block: Block) => <PollBlock postId={post._id} block={block} />, [post._id]);
  const tipPost = useRef(post);
  tipPost.current = post;
  const renderTip = useCallback(
    () => (
      <Suspense fallback={null}>
        <TipBlock post={tipPost.current} />
      </Suspense>
    ),
    [],
  );

  const published = post.publishedAt ?? post.createdAt;
  return (
    <article className="post" aria-labelledby="post-title">
      <header className="post__header">
        <div className="post__top">
          <CategoryPill category={post.category} />
          {post.status && post.status !== 'published' ? <span className="badge-inline">{post.status}</span> : null}
          {post.visibility && post.visibility !== 'Public' ? <span className="badge-inline">{post.visibility}</span> : null}
        </div>
        <h1 id="post-title" className="post__title">
          {post.title}
        </h1>
        <div className="post__byline">
          {post.author ? (
            <Link to={`/author-profile/${post.author._id}`} className="post__author">
              <Avatar name={post.author.name} src={post.author.avatar} size={40} />
              <span>{post.author.name}</span>
            </Link>
          ) : null}
          {post.author ? <FollowButton person={post.author} /> : null}
          {post.author && user && !isAuthor ? (
            <Suspense fallback={null}>
              <AuthorAlertsMenu authorId={post.author._id} authorName={post.author.name} />
            </Suspense>
          ) : null}
          <span className="muted">
            {published ? <time dateTime={published}>{formatDate(published)}</time> : null}
            {post.editedAt ? (
              <>
                {' · '}Edited <time dateTime={post.editedAt}>{formatDate(post.editedAt)}</time>
              </>
            ) : null}
            {' · '}
            {readingTimeLabel(post.readingTime)}
          </span>
        </div>
        <TagList tags={post.tags} />
        {isAuthor || isAdmin ? (
          <div className="post__owner-actions">
            {isAuthor ? (
              <>
                <Link to={`/edit-post/${encodeURIComponent(post.slug)}`} className="button button--small button--ghost">
                  Edit
                </Link>
                <Link to={`/delete-post/${encodeURIComponent(post._id)}`} className="button button--small button--ghost">
                  Delete
                </Link>
              </>
            ) : null}
            {isAdmin ? (
              <Suspense
                fallback={
                  <span className="button button--small button--ghost" aria-hidden="true">
                    {post.blocked ? 'Unblock post' : 'Block post'}
                  </span>
                }
              >
                <PostBlockButton post={post} />
              </Suspense>
            ) : null}
          </div>
        ) : null}
        {user && !isAuthor ? (
          <div className="post__report">
            <Suspense
              fallback={
                <span className="button button--small button--ghost" aria-hidden="true">
                  Report
                </span>
              }
            >
              <ReportPostButton postId={post._id} />
            </Suspense>
          </div>
        ) : null}
      </header>
      {post.series ? <SeriesBar place={post.series} /> : null}
      {post.blocked ? (
        <div className="notice notice--warning" role="status">
          <p>{BLOCKED_NOTICE}</p>
          {isAuthor ? (
            <Suspense fallback={null}>
              <AppealForm postId={post._id} />
            </Suspense>
          ) : null}
        </div>
      ) : null}
      {post.thumbnail ? (
        <ResponsiveImage src={post.thumbnail} alt="" meta={post.thumbnailImage} priority className="post__thumb" />
      ) : null}
      {post.locked ? <LockedNotice post={post} signedIn={Boolean(user)} /> : null}
      <PostBlocks blocks={post.blocks ?? NO_BLOCKS} renderPoll={renderPoll} renderTip={renderTip} />
      {post.series ? <SeriesEnd place={post.series} /> : null}
      <EngagementBar post={post} commentCount={commentCount} />
      {/* Below the article, drawn once the article has painted: the support card's code (and RTK
          Query's) loads as the reader nears it. */}
      <AfterPaint>
        <WhenNear>
          <Suspense fallback={null}>
            <TipSection post={post} />
          </Suspense>
        </WhenNear>
        {!user && post.author ? <NewsletterForm authorId={post.author._id} authorName={post.author.name} /> : null}
        <Suspense fallback={<section className="comments" aria-busy="true" aria-label="Comments" />}>
          <CommentsSection postId={post._id} postAuthorId={post.author?._id ?? null} />
        </Suspense>
        <SuggestedPosts post={post} />
      </AfterPaint>
    </article>
  );
});

/** Displays a post with every block type, its engagement, support card and supporters, comments and suggestions. */
export default function PostPage() {
  const { slug = '' } = useParams();
  const dispatch = useAppDispatch();
  const { authInitialized, user } = useAppSelector((state) => state.auth);
  const { currentPost, currentStatus, error } = useAppSelector(selectPosts);

  // Read again when the viewer changes: what they may see differs.
  useEffect(() => {
    if (authInitialized) void dispatch(fetchPost({ slug }));
  }, [dispatch, slug, authInitialized, user?._id]);

  if (currentStatus === 'failed' && (!currentPost || currentPost.slug !== slug)) {
    return (
      <Page title="Post not available">
        <p role="alert">{error ?? POST_FALLBACK.post}</p>
        <Link to="/">Back to the main page</Link>
      </Page>
    );
  }
  if (!currentPost || currentPost.slug !== slug) {
    return (
      <Page title="Post">
        <p role="status">Loading...</p>
      </Page>
    );
  }
  return (
    <Page title={currentPost.title} bare>
      <PostView post={currentPost} />
    </Page>
  );
}
