import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { compactCount, readingTimeLabel, relativeTime } from '@/lib/format';
import type { Post } from '@/types/entities';
import { Avatar } from './avatar';
import { CommentIcon, HeartIcon } from './icons';
import { CategoryPill, TagList } from './post-meta';
import { CARD_SIZES, ResponsiveImage } from './responsive-image';

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The excerpt a card shows: the post's first words, without its title when the text opens with a
 * header that repeats it (the title is already the card's heading). Empty when nothing is left.
 */
export function cardExcerpt(title: string, excerpt: string | undefined | null): string {
  const text = squash(excerpt ?? '');
  const heading = squash(title ?? '');
  if (!heading || text.toLowerCase().slice(0, heading.length) !== heading.toLowerCase()) return text;
  const next = text.charAt(heading.length);
  // Only a whole repeat: "Hello world" opens "Hello world. Then…" but not "Hello worldwide…".
  if (next && /[\p{L}\p{N}]/u.test(next)) return text;
  return text.slice(heading.length).replace(/^[\s.:;,!?\-–—]+/, '');
}

/**
 * A post in a list: thumbnail, title, excerpt, author, category, tags, reading time, likes and
 * comments, relative time. `actions` adds controls (e.g. removing a bookmark); `priority` for the
 * first card of a list, whose thumbnail is on the first screen (fetched first, never lazily).
 */
export function PostCard({ post, actions, priority = false }: { post: Post; actions?: ReactNode; priority?: boolean }) {
  const href = `/post/${encodeURIComponent(post.slug)}`;
  const excerpt = cardExcerpt(post.title, post.excerpt);
  return (
    <article className="post-card" aria-labelledby={`post-${post._id}-title`}>
      {post.thumbnail ? (
        <Link to={href} tabIndex={-1} aria-hidden="true" className="post-card__thumb-link">
          <ResponsiveImage
            src={post.thumbnail}
            alt=""
            meta={post.thumbnailImage}
            sizes={CARD_SIZES}
            priority={priority}
            className="post-card__thumb"
          />
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
      {excerpt ? <p className="post-card__excerpt">{excerpt}</p> : null}
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
