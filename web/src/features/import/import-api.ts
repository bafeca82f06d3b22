/**
 * The import routes, called through the app's one HTTP client (`lib/http.ts`) with their
 * generated wire types (import-types.ts re-exports them). An export file goes as multipart
 * (`source`, `file`), which the generated `postImport` endpoint (JSON only) cannot send; a feed's
 * address goes as JSON. The fallback texts are shown when the server gives no message.
 */
import type { PostImportApiArg } from '@/api/endpoints';
import { request } from '@/lib/http';
import type {
  DeleteImportByIdPostsApiResponse,
  GetImportApiResponse,
  GetImportByIdApiResponse,
  ImportConfirmBody,
  ImportSource,
  PostImportApiResponse,
  PostImportByIdCancelApiResponse,
  PostImportByIdConfirmApiResponse,
} from './import-types';

/** The largest file an import takes (the server's `import.max_upload_bytes`). */
export const MAX_IMPORT_BYTES = 200 * 1024 * 1024;
/** An upload of up to 200 MB may take minutes on a slow line: the client waits up to 10. */
export const UPLOAD_TIMEOUT_MS = 10 * 60 * 1000;

export const IMPORT_FALLBACK = {
  start: 'Could not start the import',
  read: 'Could not read the import',
  list: 'Could not load your imports',
  confirm: 'Could not start importing',
  cancel: 'Could not cancel the import',
  remove: 'Could not remove the imported posts',
} as const;

/** What to start: an export file of a platform, or a feed's address. */
export type ImportInput = { source: Exclude<ImportSource, 'feed'>; file: File } | { source: 'feed'; url: string };

const path = (id: string) => `/import/${encodeURIComponent(id)}`;

export const importApi = {
  /** `POST /api/import`: multipart (`source`, `file`) for a file, JSON for a feed; 202 `parsing`. */
  start(input: ImportInput) {
    if (input.source === 'feed') {
      const body: PostImportApiArg['body'] = { source: 'feed', url: input.url };
      return request<PostImportApiResponse>('/import', { method: 'POST', body, fallback: IMPORT_FALLBACK.start });
    }
    const form = new FormData();
    form.append('source', input.source);
    form.append('file', input.file, input.file.name);
    return request<PostImportApiResponse>('/import', { method: 'POST', body: form, fallback: IMPORT_FALLBACK.start, timeoutMs: UPLOAD_TIMEOUT_MS });
  },
  get: (id: string) => request<GetImportByIdApiResponse>(path(id), { fallback: IMPORT_FALLBACK.read }),
  list: () => request<GetImportApiResponse>('/import', { fallback: IMPORT_FALLBACK.list }),
  confirm: (id: string, body: ImportConfirmBody) =>
    request<PostImportByIdConfirmApiResponse>(`${path(id)}/confirm`, { method: 'POST', body, fallback: IMPORT_FALLBACK.confirm }),
  cancel: (id: string) => request<PostImportByIdCancelApiResponse>(`${path(id)}/cancel`, { method: 'POST', body: {}, fallback: IMPORT_FALLBACK.cancel }),
  removePosts: (id: string) => request<DeleteImportByIdPostsApiResponse>(`${path(id)}/posts`, { method: 'DELETE', fallback: IMPORT_FALLBACK.remove }),
};
