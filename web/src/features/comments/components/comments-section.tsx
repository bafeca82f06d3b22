import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { RichText } from '@/components/rich-text';
import { discardQueued, PendingNote, useQueuedComments } from '@/features/offline';
import { relativeTime } from '@/lib/format';
import {
  addComment,
  blockComment,
  deleteComment,
  editComment,
  fetchComments,
  MAX_COMMENT_LENGTH,
  reactToComment,
  selectPostComments,
  type Comment,
} from '../comments-slice';
import { withQueued } from '../queued-comments';

export const DELETE_COMMENT_WARNING = 'The comment and every reply under it will be deleted. This cannot be undone.';

interface Viewer {
  id: string | null;
  name: string;
  isAdmin: boolean;
  isPostAuthor: boolean;
}

/** A text box with a live counter (1 to 5000 characters). */
function CommentForm({
  label,
  initial = '',
  submitText,
  onSubmit,
  onCancel,
  autoFocus,
}: {
  label: string;
  initial?: string;
  submitText: string;
  onSubmit: (text: string) => Promise<boolean>;
  onCancel?: () => void;
  autoFocus?: boolean;
}) {
  const id = useId();
  const [text, setText] = useState(initial);
  const [busy, setBusy] = useState(false);
  const trimmed = text.trim();
  const tooLong = text.length > MAX_COMMENT_LENGTH;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || tooLong) return;
    setBusy(true);
    const ok = await onSubmit(trimmed);
    setBusy(false);
    if (ok) setText('');
  };
  return (
    <form className="comment-form" onSubmit={(e) => void submit(e)}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <textarea id={id} value={text} rows={3} placeholder={label} autoFocus={autoFocus} aria-describedby={`${id}-count`} onChange={(e) => setText(e.target.value)} />
      <div className="comment-form__foot">
        <small id={`${id}-count`} className={tooLong ? 'form-error' : 'muted'} aria-live="polite">
          {text.length} / {MAX_COMMENT_LENGTH}
        </small>
        <div className="form-actions">
          {onCancel ? (
            <button type="button" className="button button--small button--ghost" onClick={onCancel}>
              Cancel
            </button>
          ) : null}
          <button type="submit" className="button button--small" disabled={busy || !trimmed || tooLong}>
            {submitText}
          </button>
        </div>
      </div>
    </form>
  );
}

function CommentItem({ comment, postId, viewer, depth }: { comment: Comment; postId: string; viewer: Viewer; depth: number }) {
  const dispatch = useAppDispatch();
  const [replying, setReplying] = useState(false);
  const [editing, setEditing] = useState(false);
  const mine = viewer.id !== null && viewer.id === comment.user;
  const canModerate = viewer.isAdmin || viewer.isPostAuthor;
  const likes = comment.reactions?.like ?? [];
  const liked = viewer.id !== null && likes.includes(viewer.id);
  const signedIn = viewer.id !== null;

  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = async () => {
    setDeleting(true);
    await dispatch(deleteComment({ postId, commentId: comment._id }));
    setDeleting(false);
    setConfirmingDelete(false);
  };

  const queued = comment.queued;
  return (
    <li className={`comment ${comment.pending ? 'comment--pending' : ''} ${queued ? 'comment--queued' : ''}`} data-testid="comment" data-queued={queued ? 'true' : undefined}>
      <div className="comment__head">
        <Avatar name={comment.userData?.name} src={comment.userData?.avatar} size={28} />
        <Link to={`/author-profile/${comment.userData?._id ?? comment.user}`} className="comment__author">
          {comment.userData?.name ?? 'User'}
        </Link>
        {queued ? (
          <>
            <PendingNote error={queued.error ?? undefined} />
            {queued.error ? (
              <button type="button" className="link-button" onClick={() => void discardQueued(queued.key)}>
                Discard
              </button>
            ) : null}
          </>
        ) : (
          <time className="muted small" dateTime={comment.createdAt}>
            {comment.pending ? 'Sending…' : relativeTime(comment.createdAt)}
          </time>
        )}
        {comment.edited ? <span className="muted small">(edited)</span> : null}
        {comment.blocked ? <span className="badge-inline badge-inline--danger">hidden</span> : null}
      </div>
      {editing ? (
        <CommentForm
          label="Edit your comment"
          initial={comment.content}
          submitText="Save"
          autoFocus
          onCancel={() => setEditing(false)}
          onSubmit={async (content) => {
            const r = await dispatch(editComment({ postId, commentId: comment._id, content }));
            if (editComment.fulfilled.match(r)) setEditing(false);
            return editComment.fulfilled.match(r);
          }}
        />
      ) : (
        <RichText as="p" className={`comment__body ${comment.blocked ? 'muted' : ''}`} html={comment.content} />
      )}
      {!comment.pending && !queued ? (
        <div className="comment__actions">
          <button
            type="button"
            className={`link-button ${liked ? 'link-button--on' : ''}`}
            aria-pressed={liked}
            disabled={!signedIn}
            onClick={() => void dispatch(reactToComment({ postId, commentId: comment._id, reactionType: 'like' }))}
          >
            Like{likes.length > 0 ? ` (${likes.length})` : ''}
          </button>
          {signedIn && depth < 10 ? (
            <button type="button" className="link-button" aria-expanded={replying} onClick={() => setReplying(!replying)}>
              Reply
            </button>
          ) : null}
          {mine && !comment.blocked ? (
            <button type="button" className="link-button" onClick={() => setEditing(true)}>
              Edit
            </button>
          ) : null}
          {canModerate ? (
            <button
              type="button"
              className="link-button"
              onClick={() => void dispatch(blockComment({ postId, commentId: comment._id, blocked: !comment.blocked }))}
            >
              {comment.blocked ? 'Unblock' : 'Block'}
            </button>
          ) : null}
          {mine || canModerate ? (
            <button type="button" className="link-button link-button--danger" onClick={() => setConfirmingDelete(true)}>
              Delete
            </button>
          ) : null}
          {comment.repliesCount > 0 ? (
            <span className="muted small">
              {comment.repliesCount} {comment.repliesCount === 1 ? 'reply' : 'replies'}
            </span>
          ) : null}
        </div>
      ) : null}
      {confirmingDelete ? (
        <ConfirmDialog title="Delete this comment?" confirmLabel="Delete comment" danger busy={deleting} onConfirm={() => void remove()} onCancel={() => setConfirmingDelete(false)}>
          <p>{DELETE_COMMENT_WARNING}</p>
        </ConfirmDialog>
      ) : null}
      {replying ? (
        <CommentForm
          label={`Reply to ${comment.userData?.name ?? 'this comment'}`}
          submitText="Reply"
          autoFocus
          onCancel={() => setReplying(false)}
          onSubmit={async (content) => {
            setReplying(false);
            const r = await dispatch(addComment({ postId, content, parentId: comment._id, author: viewer.id ? { _id: viewer.id, name: viewer.name } : undefined }));
            return addComment.fulfilled.match(r);
          }}
        />
      ) : null}
      {comment.replies.length > 0 ? (
        <ul className="comment-list comment-list--replies">
          {comment.replies.map((reply) => (
            <CommentItem key={reply._id} comment={reply} postId={postId} viewer={viewer} depth={depth + 1} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** A post's comments: the count, the form, and the tree oldest first with replies nested. */
export function CommentsSection({ postId, postAuthorId }: { postId: string; postAuthorId: string | null }) {
  const dispatch = useAppDispatch();
  const location = useLocation();
  const { user, role, isAuthenticated } = useAppSelector((state) => state.auth);
  const thread = useAppSelector((state) => selectPostComments(state, postId));
  const { status, error } = thread;
  // Comments written offline show from the queue until they are sent, then come from the server.
  const queuedComments = useQueuedComments(postId);
  const { items, added } = useMemo(() => withQueued(thread.items, queuedComments), [thread.items, queuedComments]);
  const count = thread.count + added;
  const waiting = useRef(queuedComments.length);
  const addError = useAppSelector((state) => (state.comments.addError?.postId === postId ? state.comments.addError : null));
  const actionError = useAppSelector((state) => state.comments.actionError);
  const viewer: Viewer = {
    id: user?._id ?? null,
    name: user?.name ?? 'You',
    isAdmin: role === 'admin',
    isPostAuthor: user !== null && user._id === postAuthorId,
  };

  useEffect(() => {
    void dispatch(fetchComments(postId));
  }, [dispatch, postId, user?._id]);

  useEffect(() => {
    if (queuedComments.length < waiting.current) void dispatch(fetchComments(postId));
    waiting.current = queuedComments.length;
  }, [dispatch, postId, queuedComments.length]);

  return (
    <section className="comments" aria-labelledby="comments-title">
      <h2 id="comments-title">
        Comments <span className="muted" data-testid="comment-count">({count})</span>
      </h2>
      {isAuthenticated ? (
        <CommentForm
          label="Add a comment"
          submitText="Comment"
          onSubmit={async (content) => {
            const r = await dispatch(addComment({ postId, content, author: viewer.id ? { _id: viewer.id, name: viewer.name } : undefined }));
            return addComment.fulfilled.match(r);
          }}
        />
      ) : (
        <p className="muted">
          <Link to="/login" state={{ from: location.pathname }}>
            Log in
          </Link>{' '}
          to join the conversation.
        </p>
      )}
      {addError ? (
        <p className="form-error" role="alert">
          {addError.message}
        </p>
      ) : null}
      {actionError ? (
        <p className="form-error" role="alert">
          {actionError}
        </p>
      ) : null}
      {status === 'loading' && items.length === 0 ? <p role="status">Loading comments...</p> : null}
      {status === 'failed' ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {status === 'succeeded' && items.length === 0 ? <p className="muted">No comments yet. Start the conversation.</p> : null}
      <ul className="comment-list">
        {items.map((comment) => (
          <CommentItem key={comment._id} comment={comment} postId={postId} viewer={viewer} depth={1} />
        ))}
      </ul>
    </section>
  );
}
