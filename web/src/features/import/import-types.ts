/**
 * The import routes' types. The wire shapes are the generated ones (`@/api/endpoints`, from the
 * server's OpenAPI document). The document gives an import's `source`, `status` and progress
 * `phase` as plain strings and its sample posts as plain objects, so each answer and each
 * `importProgress` event is read once (import-view.ts `importFrom`) into the narrower
 * `ImportItem` the screen works with.
 */
import type { ImportCounts as WireCounts, ImportReport as WireReport, PostImportByIdConfirmApiArg } from '@/api/endpoints';
import type { Block } from '@/types/entities';

export type {
  DeleteImportByIdPostsApiResponse,
  GetImportApiResponse,
  GetImportByIdApiResponse,
  PostImportApiResponse,
  PostImportByIdCancelApiResponse,
  PostImportByIdConfirmApiResponse,
} from '@/api/endpoints';

/** What an import reads: a platform's export file, or any feed (RSS, Atom, JSON Feed). */
export type ImportSource = 'wordpress' | 'medium' | 'substack' | 'ghost' | 'pressroom' | 'feed';

/** `parsing` → `preview` → (confirmed) `importing` → `done`; or `failed`, or `cancelled`. */
export type ImportStatus = 'parsing' | 'preview' | 'importing' | 'done' | 'failed' | 'cancelled';

/** The server sends `parsing`, `writing` and `done`; the others are named for what may come. */
export type ImportPhase = 'parsing' | 'converting' | 'images' | 'writing' | 'done';

/** What the export holds (read while parsing): posts (drafts and scheduled among them), pages... */
export type ImportCounts = WireCounts;

/** What the import did, once it ends. */
export type ImportReport = WireReport;

/** The body of `POST /api/import/{id}/confirm`. */
export type ImportConfirmBody = PostImportByIdConfirmApiArg['body'];

export interface ImportProgress {
  phase: ImportPhase;
  done: number;
  /** 0 while the total is not known. */
  total: number;
}

/** One of the first posts of the export, as it will arrive. */
export interface ImportSample {
  title: string;
  slug: string;
  status: 'published' | 'draft' | 'scheduled' | 'private';
  kind: 'post' | 'page';
  date: string | null;
  blocks: Block[];
}

/** An import as the screen holds it (an `ImportItem` of the API, read by `importFrom`). */
export interface ImportItem {
  id: string;
  source: ImportSource;
  status: ImportStatus;
  fileName: string | null;
  url: string | null;
  createdAt: string;
  updatedAt: string;
  counts: ImportCounts;
  warnings: string[];
  progress: ImportProgress | null;
  report: ImportReport | null;
  error: string | null;
  /** Only in `GET /api/import/{id}` once the export is read: up to three posts as they will arrive. */
  sample?: ImportSample[];
}
