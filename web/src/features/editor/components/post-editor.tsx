import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useBlocker, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { createPost, editorOpened, POST_FALLBACK, updatePost } from '@/features/posts';
import { RevisionHistoryDialog } from '@/features/revisions';
import { formatBytes, MAX_REQUEST_BYTES } from '@/lib/image-file';
import { relativeTime } from '@/lib/format';
import type { Block, CategoryRef, Post } from '@/types/entities';
import { checkBeforeSave, placeError, toInput } from '../editor-rules';
import { clearDraft, detailsOf, LocalDraftKeeper, readDraft, writeDraft, type PostDetails, type PostDraft } from '../post-draft';
import { useServerAutosave } from '../use-server-autosave';
import { BlockEditor, type BlockEditorHandle } from './block-editor';
import { PostDetailsForm, type FieldErrors } from './post-details-form';

export { checkBeforeSave, placeError, toInput };

export const LEAVE_WARNING = 'You have unsaved changes. Leave this page and keep them only as a local draft?';
const DRAFT_SAVE_DELAY_MS = 600;

interface PostEditorProps {
  /** `new`, or the slug of the post being edited (also the local draft's name). */
  draftName: string;
  initialDetails: PostDetails;
  initialBlocks: Block[];
  /** When the post was last saved on the server (an offered draft must be newer). */
  serverUpdatedAt?: string;
  slug?: string;
  currentCategory?: CategoryRef | null;
  heading: string;
  /** The saved post's id (an edit): its revision history. */
  postId?: string;
  /** The saved post's status (an edit): only a draft is saved automatically to the server. */
  serverStatus?: string;
  /** Whether the signed-in person wrote the post (an administrator's edits are never automatic). */
  ownPost?: boolean;
}

/** The writing screen: Editor.js beside the post's details; drafts kept locally; errors where they belong. */
export function PostEditor({ draftName, initialDetails, initialBlocks, serverUpdatedAt, slug, currentCategory, heading, postId, serverStatus, ownPost }: PostEditorProps) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const isAdmin = useAppSelector((state) => state.auth.role === 'admin');
  const saving = useAppSelector((state) => state.posts.saving);
  const editorRef = useRef<BlockEditorHandle>(null);
  const [details, setDetails] = useState<PostDetails>(initialDetails);
  const [blocks, setBlocks] = useState<Block[]>(initialBlocks);
  const [editorKey, setEditorKey] = useState(0);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [dirty, setDirty] = useState(false);
  // Set just before the editor itself navigates away after a save (state would come too late).
  const leaving = useRef(false);
  const [offered, setOffered] = useState<PostDraft | null>(() => {
    const draft = readDraft(draftName);
    if (!draft) return null;
    if (serverUpdatedAt && draft.savedAt <= new Date(serverUpdatedAt).getTime()) return null;
    return draft;
  });
  const detailsRef = useRef(details);
  detailsRef.current = details;
  const [historyOpen, setHistoryOpen] = useState(false);
  const [savedStatus, setSavedStatus] = useState(serverStatus);
  const autosave = useServerAutosave({
    slug: savedStatus === 'draft' && ownPost ? slug : undefined,
    editorRef,
    detailsRef,
    saving,
  });

  useEffect(() => {
    dispatch(editorOpened());
  }, [dispatch]);

  // Nothing typed is lost: the content goes to local storage shortly after each change.
  const keeper = useRef<LocalDraftKeeper | null>(null);
  useEffect(() => {
    const kept = new LocalDraftKeeper(
      async () => ({ details: detailsRef.current, blocks: (await editorRef.current?.save()) ?? [] }),
      (draft) => writeDraft(draftName, draft),
      DRAFT_SAVE_DELAY_MS,
    );
    keeper.current = kept;
    return () => kept.stop();
  }, [draftName]);
  const autosaveChanged = autosave.changed;
  const scheduleDraft = useCallback(() => {
    setDirty(true);
    autosaveChanged();
    keeper.current?.changed();
  }, [autosaveChanged]);

  const change = (changes: Partial<PostDetails>) => {
    setDetails((d) => ({ ...d, ...changes }));
    scheduleDraft();
  };

  // Leaving with unsaved changes asks first (in the app and when closing the tab).
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !leaving.current && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(LEAVE_WARNING)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = LEAVE_WARNING;
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const restore = (draft: PostDraft) => {
    setDetails(draft.details);
    setBlocks(draft.blocks);
    setEditorKey((k) => k + 1);
    setOffered(null);
    setDirty(true);
  };

  /** A revision restored from the history: the editor shows the post as it now is. */
  const showRestored = (post: Post) => {
    setDetails(detailsOf(post));
    setBlocks(post.blocks ?? []);
    setEditorKey((k) => k + 1);
    setErrors({});
    setOffered(null);
    setDirty(false);
    setSavedStatus(post.status);
    keeper.current?.cancel();
    clearDraft(draftName);
    autosave.reset();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // An automatic save still on its way must not land after this one.
    await autosave.hold();
    keeper.current?.cancel();
    const saved = (await editorRef.current?.save()) ?? [];
    writeDraft(draftName, { details, blocks: saved });
    const found = checkBeforeSave(details, saved);
    const input = toInput(details, saved);
    const size = new Blob([JSON.stringify(input)]).size;
    if (size > MAX_REQUEST_BYTES && !found.blocks) {
      found.blocks = `This post is ${formatBytes(size)}; a post may be up to ${formatBytes(MAX_REQUEST_BYTES)} with its images. Use smaller images.`;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) {
      autosave.release();
      return;
    }
    const result = slug ? await dispatch(updatePost({ slug, changes: input })) : await dispatch(createPost(input));
    if (createPost.fulfilled.match(result) || updatePost.fulfilled.match(result)) {
      keeper.current?.stop();
      clearDraft(draftName);
      setDirty(false);
      leaving.current = true;
      navigate(`/post/${encodeURIComponent(result.payload.slug)}`, { replace: !slug });
      return;
    }
    autosave.release();
    const message = result.payload ?? (slug ? POST_FALLBACK.update : POST_FALLBACK.create);
    const status = /413|too large/i.test(message) ? 413 : null;
    setErrors(placeError(message, status));
  };

  const action = details.status === 'draft' ? 'Save draft' : details.status === 'scheduled' ? 'Schedule' : slug ? 'Save and publish' : 'Publish';
  return (
    <>
      <form className="editor-layout" onSubmit={(e) => void submit(e)} noValidate>
        <div className="editor-main">
          <div className="editor-heading">
            <h1 className="page__title" id="editor-title">
              {heading}
            </h1>
            {postId ? (
              <button
                type="button"
                className="button button--small button--ghost"
                aria-haspopup="dialog"
                onClick={() => {
                  void autosave.hold();
                  setHistoryOpen(true);
                }}
              >
                History
              </button>
            ) : null}
          </div>
          {offered ? (
            <div className="notice notice--info" role="status">
              <span>A draft you were writing {relativeTime(offered.savedAt)} was kept in this browser.</span>
              <div className="form-actions form-actions--start">
                <button type="button" className="button button--small" onClick={() => restore(offered)}>
                  Restore draft
                </button>
                <button
                  type="button"
                  className="button button--small button--ghost"
                  onClick={() => {
                    clearDraft(draftName);
                    setOffered(null);
                  }}
                >
                  Discard it
                </button>
              </div>
            </div>
          ) : null}
          <p id="editor-content-label" className="field__label">
            Content
          </p>
          {errors.blocks ? (
            <p id="editor-blocks-error" className="form-error" role="alert">
              {errors.blocks}
            </p>
          ) : null}
          <BlockEditor
            key={editorKey}
            ref={editorRef}
            initialBlocks={blocks}
            onChange={scheduleDraft}
            labelledBy="editor-content-label"
            describedBy={errors.blocks ? 'editor-blocks-error' : undefined}
          />
        </div>
        <aside className="editor-side" aria-label="Post details">
          <PostDetailsForm details={details} onChange={change} errors={errors} isAdmin={isAdmin} currentCategory={currentCategory} />
          {errors.general ? (
            <p className="form-error" role="alert">
              {errors.general}
            </p>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="button" disabled={saving}>
              {saving ? 'Saving...' : action}
            </button>
          </div>
          {autosave.message ? (
            <p className="muted small editor-autosave" role="status">
              {autosave.message}
            </p>
          ) : null}
        </aside>
      </form>
      {historyOpen && postId ? (
        <RevisionHistoryDialog
          postId={postId}
          unsavedChanges={dirty}
          onRestored={showRestored}
          onClose={() => {
            setHistoryOpen(false);
            autosave.release();
          }}
        />
      ) : null}
    </>
  );
}
