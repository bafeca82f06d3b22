/**
 * Settings → Import: bring an archive from WordPress, Medium, Substack, Ghost, a Pressroom export
 * or any feed. The import on screen goes form → reading (progress) → preview → importing
 * (progress) → its end; the writer's earlier imports are listed under it.
 *
 * The import on screen is followed live (`importProgress`) and, as a fallback, read every 2 s
 * while the server works on it. The tab keeps its id: after a reload it is read and shown again,
 * wherever it stands.
 */
import { useEffect, useRef } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { readImportMemory } from '../import-memory';
import { dismissImport, fetchImport, importResumed, selectImports } from '../import-slice';
import { isWorking, sourceName } from '../import-sources';
import type { ImportStatus, ImportItem } from '../import-types';
import { ImportForm } from './import-form';
import { ImportHistory } from './import-history';
import { ImportOutcome } from './import-outcome';
import { ImportPreview } from './import-preview';
import { ImportRunning } from './import-progress';
import '../import.css';

/** How often the import on screen is read while the server works on it (besides the events). */
export const IMPORT_POLL_MS = 2000;

const TITLES: Record<ImportStatus, string> = {
  parsing: 'Reading your export',
  preview: 'Preview',
  importing: 'Importing',
  done: 'Import finished',
  failed: 'Import failed',
  cancelled: 'Import cancelled',
};

/** Reads the import on screen when it is not known yet or its preview has no sample, and polls it while it works. */
function useFollowImport(currentId: string | null, current: ImportItem | null) {
  const dispatch = useAppDispatch();
  const status = current?.status ?? null;
  const known = current !== null;
  const needsSample = status === 'preview' && current?.sample === undefined;

  useEffect(() => {
    if (currentId && (!known || needsSample)) void dispatch(fetchImport(currentId));
  }, [dispatch, currentId, known, needsSample]);

  const working = status !== null && isWorking(status);
  useEffect(() => {
    if (!currentId || !working) return;
    const timer = setInterval(() => void dispatch(fetchImport(currentId)), IMPORT_POLL_MS);
    return () => clearInterval(timer);
  }, [dispatch, currentId, working]);
}

function CurrentImport({ item, userId }: { item: ImportItem; userId: string | null }) {
  switch (item.status) {
    case 'parsing':
    case 'importing':
      return <ImportRunning item={item} />;
    case 'preview':
      return <ImportPreview item={item} />;
    default:
      return <ImportOutcome item={item} userId={userId} />;
  }
}

export function ImportSection() {
  const dispatch = useAppDispatch();
  const userId = useAppSelector((state) => state.auth.user?._id ?? null);
  const { currentId, current, currentError } = useAppSelector(selectImports);
  const panelRef = useRef<HTMLElement>(null);

  // After a reload: the import the tab was showing.
  useEffect(() => {
    const kept = userId ? readImportMemory(userId).currentId : null;
    if (kept) dispatch(importResumed(kept));
  }, [dispatch, userId]);

  useFollowImport(currentId, current);

  // What was focused (Upload, Import, Cancel...) is gone when the screen moves on: focus goes to
  // the part that replaced it, not back to the top of the page.
  const view = current?.status ?? (currentId ? 'loading' : 'form');
  const lastView = useRef(view);
  useEffect(() => {
    if (lastView.current === view) return;
    lastView.current = view;
    const active = document.activeElement;
    if (!active || active === document.body) panelRef.current?.focus();
  }, [view]);

  let title = 'New import';
  let body;
  if (current) {
    title = TITLES[current.status];
    body = (
      <>
        <p className="muted small import-what">
          {sourceName(current.source)}
          {current.fileName || current.url ? ` · ${current.fileName ?? current.url}` : ''}
        </p>
        <CurrentImport item={current} userId={userId} />
      </>
    );
  } else if (currentId && currentError) {
    title = 'Your import';
    body = (
      <>
        <p className="form-error" role="alert">
          {currentError}{' '}
          <button type="button" className="link-button" onClick={() => void dispatch(fetchImport(currentId))}>
            Try again
          </button>
        </p>
        <button type="button" className="button button--small button--ghost" onClick={() => void dispatch(dismissImport())}>
          Start a new import
        </button>
      </>
    );
  } else if (currentId) {
    title = 'Your import';
    body = (
      <p className="muted small" role="status">
        Loading your import...
      </p>
    );
  } else {
    body = <ImportForm userId={userId} />;
  }

  return (
    <div className="import">
      <p className="muted small">
        Bring your archive from another platform. You see what it holds before anything is imported; posts arrive as drafts unless you keep their
        published state, and you can remove what an import created.
      </p>
      <section ref={panelRef} tabIndex={-1} aria-labelledby="import-current-title" className="import-current" data-import-view={view}>
        <h3 id="import-current-title" className="settings-subtitle">
          {title}
        </h3>
        {body}
      </section>
      <section aria-labelledby="import-history-title">
        <h3 id="import-history-title" className="settings-subtitle">
          Your imports
        </h3>
        <ImportHistory />
      </section>
    </div>
  );
}
