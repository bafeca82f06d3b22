/**
 * The start of an import: where from (a platform's export file, or a feed's address), the file or
 * the address, and Upload / Read feed. The file is checked before it is sent (chosen, not empty,
 * at most 200 MB, the platform's kind of file); the source and the address typed are kept in the
 * tab (a reload keeps them; a file cannot be kept).
 */
import { useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { MAX_IMPORT_BYTES } from '../import-api';
import { emptyImportMemory, readImportMemory, rememberImport } from '../import-memory';
import { selectImports, startImport } from '../import-slice';
import { feedUrlProblem, fileProblem, SOURCES, sourceChoice } from '../import-sources';
import type { ImportSource } from '../import-types';

const ERROR_ID = 'import-form-error';

export function ImportForm({ userId }: { userId: string | null }) {
  const dispatch = useAppDispatch();
  const { pending, requestError } = useAppSelector(selectImports);
  const [kept] = useState(() => (userId ? readImportMemory(userId) : emptyImportMemory()));
  const [source, setSource] = useState<ImportSource>(kept.source);
  const [feedUrl, setFeedUrl] = useState(kept.feedUrl);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const choice = sourceChoice(source);
  const feed = source === 'feed';
  const busy = pending === 'starting';
  const error = problem ?? requestError;

  const choose = (value: ImportSource) => {
    setSource(value);
    setFile(null);
    setProblem(null);
    if (userId) rememberImport(userId, { source: value });
  };

  const typeUrl = (value: string) => {
    setFeedUrl(value);
    setProblem(null);
    if (userId) rememberImport(userId, { feedUrl: value });
  };

  const pick = (picked: File | null) => {
    setFile(picked);
    // Said at once for a file that cannot be sent; a missing file is said on Upload.
    setProblem(picked ? fileProblem(choice, picked, MAX_IMPORT_BYTES) : null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = feed ? feedUrlProblem(feedUrl) : fileProblem(choice, file, MAX_IMPORT_BYTES);
    setProblem(found);
    if (found) {
      document.getElementById(feed ? 'import-feed-url' : 'import-file')?.focus();
      return;
    }
    if (source === 'feed') await dispatch(startImport({ source, url: feedUrl.trim() }));
    else if (file) await dispatch(startImport({ source, file }));
  };

  const describedBy = (hint: string) => (error ? `${hint} ${ERROR_ID}` : hint);

  return (
    <form className="form import-form" onSubmit={(event) => void submit(event)} aria-label="Start an import" aria-busy={busy} noValidate>
      <fieldset className="checks" disabled={busy}>
        <legend>What to import from</legend>
        {SOURCES.map((s) => (
          <label key={s.value} className="check">
            <input type="radio" name="import-source" value={s.value} checked={source === s.value} onChange={() => choose(s.value)} /> {s.label}
          </label>
        ))}
      </fieldset>
      {feed ? (
        <div className="field">
          <label htmlFor="import-feed-url">Feed address</label>
          <input
            id="import-feed-url"
            type="url"
            inputMode="url"
            autoComplete="url"
            placeholder="https://example.com/feed"
            value={feedUrl}
            disabled={busy}
            aria-invalid={problem ? true : undefined}
            aria-describedby={describedBy('import-feed-url-hint')}
            onChange={(e) => typeUrl(e.target.value)}
          />
          <small id="import-feed-url-hint" className="muted">
            {choice.where}
          </small>
        </div>
      ) : (
        <div className="field">
          <label htmlFor="import-file">{choice.name} export file</label>
          <input
            // A new source starts with no file chosen.
            key={source}
            id="import-file"
            type="file"
            accept={choice.accept ?? undefined}
            disabled={busy}
            aria-invalid={problem ? true : undefined}
            aria-describedby={describedBy('import-file-hint')}
            onChange={(e) => pick(e.target.files?.[0] ?? null)}
          />
          <small id="import-file-hint" className="muted">
            {choice.where} Upload the {choice.extension} file, up to {Math.round(MAX_IMPORT_BYTES / (1024 * 1024))} MB.
          </small>
        </div>
      )}
      {error ? (
        <p id={ERROR_ID} className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {busy ? (
        <p className="muted small" role="status">
          {feed ? 'Sending the feed’s address...' : `Uploading “${file?.name ?? ''}”...`}
        </p>
      ) : null}
      <div className="form-actions form-actions--start">
        <button type="submit" className="button" disabled={busy}>
          {feed ? (busy ? 'Reading...' : 'Read feed') : busy ? 'Uploading...' : 'Upload'}
        </button>
      </div>
    </form>
  );
}
