import { useState } from 'react';
import { errorMessage } from '@/lib/http';
import { ADMIN_FALLBACK, adminApi, EXPORT_FILE_NAME } from '../admin-api';

/** Saves a Blob under a file name through a temporary link. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ExportSection() {
  const [state, setState] = useState<{ busy: boolean; done: string | null; error: string | null }>({ busy: false, done: null, error: null });
  const download = async () => {
    setState({ busy: true, done: null, error: null });
    try {
      const blob = await adminApi.exportWorkbook();
      saveBlob(blob, EXPORT_FILE_NAME);
      setState({ busy: false, done: `Saved ${EXPORT_FILE_NAME} (${Math.max(1, Math.round(blob.size / 1024))} KB).`, error: null });
    } catch (e) {
      setState({ busy: false, done: null, error: errorMessage(e, ADMIN_FALLBACK.downloadExcel) });
    }
  };
  return (
    <section className="dashboard-block" aria-labelledby="export-title">
      <h3 id="export-title">Export the site’s data</h3>
      <p>
        An Excel workbook with a sheet of users, one of posts (drafts and blocked ones too) and one of engagement (every like, bookmark, comment, share and poll vote).
        It holds email addresses: keep it safe. The download is recorded in the audit log.
      </p>
      <button type="button" className="button" disabled={state.busy} aria-busy={state.busy} onClick={() => void download()}>
        {state.busy ? 'Preparing the workbook...' : 'Download workbook'}
      </button>
      {state.error ? (
        <p className="form-error" role="alert">
          {state.error}
        </p>
      ) : null}
      {state.done ? (
        <p className="form-status" role="status">
          {state.done}
        </p>
      ) : null}
    </section>
  );
}
