import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { formatDate } from '@/lib/format';
import { deletePost, fetchPosts, postQueryChanged, selectAdmin, toggleBlockPost } from '../admin-slice';
import type { AdminPost } from '../admin-types';
import { AdminTable, type Column } from '../components/admin-table';
import { ListState } from '../components/list-state';
import { useConfirmedAction } from '../components/use-confirmed-action';
import { ReadingDetailsDialog } from '../components/reading-details-dialog';
import { SearchSortForm } from '../components/search-sort-form';

const SORT_FIELDS = [
  ['title', 'Title'],
  ['createdAt', 'Created'],
  ['views', 'Views'],
  ['likes', 'Likes'],
] as const;

export function PostsSection() {
  const dispatch = useAppDispatch();
  const { posts } = useAppSelector(selectAdmin);
  const [reading, setReading] = useState<AdminPost | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const deletion = useConfirmedAction(async (post: AdminPost) => {
    const result = await dispatch(deletePost(post._id));
    if (deletePost.fulfilled.match(result)) void dispatch(fetchPosts({ page: Math.min(posts.page, Math.max(1, posts.totalPages)) }));
  });

  useEffect(() => {
    void dispatch(fetchPosts());
  }, [dispatch, posts.query]);

  const toggle = async (post: AdminPost) => {
    setPending(post._id);
    await dispatch(toggleBlockPost(post._id));
    setPending(null);
  };

  const columns: Column<AdminPost>[] = [
    { header: 'Post', cell: (p) => <Link to={`/post/${encodeURIComponent(p.slug)}`}>{p.title}</Link> },
    { header: 'Author', cell: (p) => (p.author ? <Link to={`/author-profile/${p.author._id}`}>{p.author.name}</Link> : (p.authorName ?? 'Deleted user')) },
    {
      header: 'Status',
      cell: (p) => (
        <>
          {p.blocked ? <span className="chip chip--danger">blocked</span> : null}
          <span className="chip chip--muted">{p.status ?? 'published'}</span>
          {p.visibility && p.visibility !== 'Public' ? <span className="chip chip--muted">{p.visibility}</span> : null}
        </>
      ),
    },
    { header: 'Views', cell: (p) => p.views ?? 0 },
    { header: 'Likes', cell: (p) => p.likesCount ?? 0 },
    { header: 'Created', cell: (p) => formatDate(p.createdAt) },
    {
      header: 'Actions',
      hiddenHeader: true,
      cell: (p) => (
        <div className="row-actions">
          <button
            type="button"
            className="button button--small button--ghost"
            disabled={pending === p._id}
            aria-label={`${p.blocked ? 'Unblock' : 'Block'} “${p.title}”`}
            onClick={() => void toggle(p)}
          >
            {p.blocked ? 'Unblock' : 'Block'}
          </button>
          <button type="button" className="button button--small button--ghost" aria-label={`Reading details of “${p.title}”`} onClick={() => setReading(p)}>
            Reading
          </button>
          <button type="button" className="button button--small button--danger-ghost" aria-label={`Delete “${p.title}”`} onClick={() => deletion.ask(p)}>
            Delete
          </button>
        </div>
      ),
    },
  ];

  return (
    <>
      <SearchSortForm
        idPrefix="post"
        label="Search posts"
        placeholder="Title or author"
        initialSearch={posts.query.search}
        sortFields={SORT_FIELDS}
        sortField={posts.query.sortField}
        sortOrder={posts.query.sortOrder}
        onSearch={(search) => dispatch(postQueryChanged({ search }))}
        onSort={(change) => dispatch(postQueryChanged(change))}
      />
      {/* A 502 answers an empty list with its message: shown as the list's error. */}
      {posts.message ? (
        <ListState status="failed" error={posts.message} count={0} emptyText="" onRetry={() => void dispatch(fetchPosts())} />
      ) : (
        <p className="muted list-count">{posts.total} posts</p>
      )}
      <AdminTable
        list={posts}
        label="Posts"
        columns={columns}
        emptyText="No posts match."
        hideState={Boolean(posts.message)}
        busyWhileLoading
        onRetry={() => void dispatch(fetchPosts())}
        onPage={(page) => void dispatch(fetchPosts({ page }))}
      />
      {reading ? <ReadingDetailsDialog post={reading} onClose={() => setReading(null)} /> : null}
      {deletion.dialog((doomed) => ({
        title: `Delete “${doomed.title}”?`,
        confirmLabel: 'Delete post',
        danger: true,
        body: (
          <p>
            This deletes the post <strong>{doomed.title}</strong> by {doomed.author?.name ?? doomed.authorName ?? 'a deleted user'} for good, with its comments, likes,
            bookmarks, poll votes, reports and images. This cannot be undone.
          </p>
        ),
      }))}
    </>
  );
}
