import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { compactCount, readingTimeLabel, relativeTime } from '@/lib/format';
import type { Post } from '@/types/entities';
import { Avatar } from './avatar';
import { CommentIcon, HeartIcon } from './icons';
import { CategoryPill, TagList } from './post-meta';

/**
 * A post in a list: thumbnail, title, excerpt, author, category, tags, reading time, likes and
 * comments, relative time. `actions` adds controls (e.g. removing a bookmark).
 */
export function PostCard({ post, actions }: { post: Post; actions?: ReactNode }) {
  const href = `/post/${encodeURIComponent(post.slug)}`;
  return (
    <article className="post-card" aria-labelledby={`post-${post._id}-title`}>
      {post.thumbnail ? (
        <Link to={href} tabIndex={-1} aria-hidden="true" className="post-card__thumb-link">
          <img src={post.thumbnail} alt="" className="post-card__thumb" loading="lazy" />
        </Link>
      ) : null}
      <div className="post-card__top">
        <CategoryPill category={post.category} />
        {post.status && post.status !== 'published' ? <span className="badge-inline">{post.status}</span> : null}
        {post.blocked ? <span className="badge-inline badge-inline--danger">blocked</span> : null}
      </div>
      <h2 className="post-card__title" id={`post-${post._id}-title`}>
        <Link to={href}>{post.title}</Link>
      </h2>
      {post.excerpt ? <p className="post-card__excerpt">{post.excerpt}</p> : null}
      <TagList tags={post.tags?.slice(0, 4)} />
      <div className="post-card__meta">
        {post.author ? (
          <Link to={`/author-profile/${post.author._id}`} className="post-card__author">
            <Avatar name={post.author.name} src={post.author.avatar} size={24} />
            <span>{post.author.name}</span>
          </Link>
        ) : null}
        <span className="muted">
          <time dateTime={post.createdAt}>{relativeTime(post.createdAt)}</time> · {readingTimeLabel(post.readingTime)}
        </span>
      </div>
      <div className="post-card__counts muted">
        <span className="count" title="Likes">
          <HeartIcon size={16} /> {compactCount(post.likesCount)}
          <span className="visually-hidden"> likes</span>
        </span>
        <span className="count" title="Comments">
          <CommentIcon size={16} /> {compactCount(post.commentsCount)}
          <span className="visually-hidden"> comments</span>
        </span>
        {actions}
      </div>
    </article>
  );
}
