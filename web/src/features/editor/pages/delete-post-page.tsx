import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Page } from '@/components/page';
import { deletePost, POST_FALLBACK } from '@/features/posts';
import type { Post } from '@/types/entities';

/**
 * /delete-post/{id}: asks for confirmation, deletes, and the post leaves every list (and the
 * open post, if it is this one).
 */
export default function DeletePostPage() {
  const { id = '' } = useParams();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const known = useAppSelector((state) =>
    [state.posts.currentPost, ...Object.values(state.posts.lists).map((l) => l.items.entities[id])].find((p): p is Post => p?._id === id),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    document.getElementById('confirm-delete')?.focus();
  }, []);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    const result = await dispatch(deletePost(id));
    setBusy(false);
    if (deletePost.fulfilled.match(result)) navigate('/', { replace: true });
    else setError(result.payload ?? POST_FALLBACK.delete);
  };

  return (
    <Page title="Delete post">
      <div className="confirm-panel" role="alertdialog" aria-labelledby="delete-question" aria-describedby="delete-detail">
        <p id="delete-question" className="lead">
          Delete {known ? <strong>“{known.title}”</strong> : 'this post'}?
        </p>
        <p id="delete-detail" className="muted">
          Its likes, bookmarks and comments go with it. This cannot be undone.
        </p>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="form-actions form-actions--start">
          <button id="confirm-delete" type="button" className="button button--danger" disabled={busy} onClick={() => void confirm()}>
            {busy ? 'Deleting...' : 'Delete post'}
          </button>
          <Link to={known ? `/post/${encodeURIComponent(known.slug)}` : '/'} className="button button--ghost">
            Cancel
          </Link>
        </div>
      </div>
    </Page>
  );
}

