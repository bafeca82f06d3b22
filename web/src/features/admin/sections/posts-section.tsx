import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { formatDate } from '@/lib/format';
import { deletePost, fetchPosts, postQueryChanged, selectAdmin, toggleBlockPost } from '../admin-slice';
import type { AdminPost } from '../admin-types';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ListState } from '../components/list-state';
import { Pager } from '../components/pager';
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
  const [doomed, setDoomed] = useState<AdminPost | null>(null);
  const [reading, setReading] = useState<AdminPost | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [pending, setPending] = useState<string | null>(null);

  useEffect(() => {
    void dispatch(fetchPosts());
  }, [dispatch, posts.query]);

  const toggle = async (post: AdminPost) => {
    setPending(post._id);
    await dispatch(toggleBlockPost(post._id));
    setPending(null);
  };
  const confirmDelete = async () => {
    if (!doomed) return;
    setDeleting(true);
    const result = await dispatch(deletePost(doomed._id));
    setDeleting(false);
    setDoomed(null);
    if (deletePost.fulfilled.match(result)) void dispatch(fetchPosts({ page: Math.min(posts.page, Math.max(1, posts.totalPages)) }));
  };

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
      {posts.message ? (
        <div className="list-state list-state--error" role="alert">
          <span>{posts.message}</span>
          <button type="button" className="button button--small button--ghost" onClick={() => void dispatch(fetchPosts())}>
            Try again
          </button>
        </div>
      ) : (
        <>
          <p className="muted list-count">{posts.total} posts</p>
          <ListState status={posts.status} error={posts.error} count={posts.items.length} emptyText="No posts match." onRetry={() => void dispatch(fetchPosts())} />
        </>
      )}
      {posts.items.length > 0 ? (
        <div className="table-scroll">
          <table className="data-table" aria-busy={posts.status === 'loading'}>
            <thead>
              <tr>
                <th scope="col">Post</th>
                <th scope="col">Author</th>
                <th scope="col">Status</th>
                <th scope="col">Views</th>
                <th scope="col">Likes</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {posts.items.map((p) => (
                <tr key={p._id}>
                  <td>
                    <Link to={`/post/${encodeURIComponent(p.slug)}`}>{p.title}</Link>
                  </td>
                  <td>{p.author ? <Link to={`/author-profile/${p.author._id}`}>{p.author.name}</Link> : (p.authorName ?? 'Deleted user')}</td>
                  <td>
                    {p.blocked ? <span className="chip chip--danger">blocked</span> : null}
                    <span className="chip chip--muted">{p.status ?? 'published'}</span>
                    {p.visibility && p.visibility !== 'Public' ? <span className="chip chip--muted">{p.visibility}</span> : null}
                  </td>
                  <td>{p.views ?? 0}</td>
                  <td>{p.likesCount ?? 0}</td>
                  <td>{formatDate(p.createdAt)}</td>
                  <td>
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
                      <button type="button" className="button button--small button--danger-ghost" aria-label={`Delete “${p.title}”`} onClick={() => setDoomed(p)}>
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager label="Posts" page={posts.page} totalPages={posts.totalPages} onPage={(page) => void dispatch(fetchPosts({ page }))} disabled={posts.status === 'loading'} />
      {reading ? <ReadingDetailsDialog post={reading} onClose={() => setReading(null)} /> : null}
      {doomed ? (
        <ConfirmDialog title={`Delete “${doomed.title}”?`} confirmLabel="Delete post" danger busy={deleting} onConfirm={() => void confirmDelete()} onCancel={() => setDoomed(null)}>
          <p>
            This deletes the post <strong>{doomed.title}</strong> by {doomed.author?.name ?? doomed.authorName ?? 'a deleted user'} for good, with its comments, likes,
            bookmarks, poll votes, reports and images. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
