/**
 * The editor's automatic save to the server (see autosave.ts), for a post that exists already.
 *
 * Only drafts are saved automatically: PATCH /api/post/update changes the post itself, so an
 * automatic save of a published or scheduled post would show readers half-written changes. The
 * post's status, schedule and email choice are never sent by it (the draft stays a draft whatever
 * the form says until the author saves), and an administrator editing someone else's post is
 * never saved automatically (each save would be an administrator's edit in the history).
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { PatchPostUpdateBySlugApiResponse } from '@/api/endpoints';
import { POST_FALLBACK } from '@/features/posts';
import { formatDateTime } from '@/lib/format';
import { errorMessage, http } from '@/lib/http';
import { MAX_REQUEST_BYTES } from '@/lib/image-file';
import { Autosaver } from './autosave';
import type { BlockEditorHandle } from './components/block-editor';
import { checkBeforeSave, toInput } from './editor-rules';
import type { PostDetails } from './post-draft';

/** What an automatic save sends: the content and its settings, not the status. */
export function autosaveBody(details: PostDetails, blocks: Parameters<typeof toInput>[1]) {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { status, publishAt, emailSubscribers, ...content } = toInput(details, blocks);
  return { ...content, autosave: true as const };
}

interface Options {
  /** The post's slug when it may be saved automatically (an existing draft of one's own). */
  slug: string | undefined;
  editorRef: RefObject<BlockEditorHandle>;
  detailsRef: RefObject<PostDetails>;
  /** The editor's own save is in flight. */
  saving: boolean;
}

export function useServerAutosave({ slug, editorRef, detailsRef, saving }: Options) {
  const saver = useRef<Autosaver<ReturnType<typeof autosaveBody>> | null>(null);
  const savingRef = useRef(saving);
  savingRef.current = saving;
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    if (!slug) return;
    const autosaver = new Autosaver<ReturnType<typeof autosaveBody>>({
      busy: () => savingRef.current,
      collect: async () => {
        const blocks = await editorRef.current?.save();
        const details = detailsRef.current;
        if (!blocks || !details) return null;
        // What the server would refuse waits for the author's own save, which says why.
        if (Object.keys(checkBeforeSave({ ...details, status: 'draft' }, blocks)).length > 0) return null;
        const body = autosaveBody(details, blocks);
        if (new Blob([JSON.stringify(body)]).size > MAX_REQUEST_BYTES) return null;
        return body;
      },
      send: async (body) => {
        await http.patch<PatchPostUpdateBySlugApiResponse>(`/post/update/${encodeURIComponent(slug)}`, body, POST_FALLBACK.update);
      },
      onSaved: (at) => setMessage(`Draft saved automatically at ${formatDateTime(at)}.`),
      onFailed: (error) => setMessage(`Could not save automatically (${errorMessage(error, POST_FALLBACK.update)}). Your changes are kept in this browser.`),
    });
    saver.current = autosaver;
    return () => {
      autosaver.stop();
      saver.current = null;
    };
  }, [slug, editorRef, detailsRef]);

  const changed = useCallback(() => saver.current?.changed(), []);
  const hold = useCallback(() => saver.current?.hold() ?? Promise.resolve(), []);
  const release = useCallback(() => saver.current?.release(), []);
  const reset = useCallback(() => saver.current?.reset(), []);
  return { changed, hold, release, reset, message };
}
