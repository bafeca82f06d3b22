/**
 * Plain functions over imports: reading an import of the API (an answer or an `importProgress`
 * event's object) into an `ImportItem`, the stand-in shown between the upload's answer and the
 * first read, and which of two states of an import is newer.
 */
import type { Block } from '@/types/entities';
import { isImportSource } from './import-sources';
import type { ImportCounts, ImportItem, ImportPhase, ImportProgress, ImportReport, ImportSample, ImportSource, ImportStatus } from './import-types';

const STATUSES: readonly ImportStatus[] = ['parsing', 'preview', 'importing', 'done', 'failed', 'cancelled'];
const PHASES: readonly ImportPhase[] = ['parsing', 'converting', 'images', 'writing', 'done'];

/** How far along a status is: an import never goes back. */
const RANK: Record<ImportStatus, number> = { parsing: 0, preview: 1, importing: 2, done: 3, failed: 3, cancelled: 3 };

export const NO_COUNTS: ImportCounts = { posts: 0, drafts: 0, scheduled: 0, pages: 0, skipped: 0, images: 0, comments: 0 };

/** What is shown between `POST /api/import`'s answer and the import's first read. */
export function placeholderImport(id: string, status: ImportStatus, source: ImportSource, fileName: string | null, url: string | null): ImportItem {
  return { id, source, status, fileName, url, createdAt: new Date().toISOString(), updatedAt: '', counts: NO_COUNTS, warnings: [], progress: null, report: null, error: null };
}

/**
 * The state to show when `incoming` arrives while `shown` is shown: `incoming`, unless it is
 * older (an earlier status, or the same status with an earlier `updatedAt`). The sample stays
 * when `incoming` has none (events carry none).
 */
export function mergeImport(shown: ImportItem | null, incoming: ImportItem): ImportItem {
  if (!shown || shown.id !== incoming.id) return withoutEarlySample(incoming);
  const older = RANK[incoming.status] < RANK[shown.status] || (incoming.status === shown.status && incoming.updatedAt < shown.updatedAt);
  if (older) return incoming.sample && !shown.sample && incoming.status !== 'parsing' ? { ...shown, sample: incoming.sample } : shown;
  return withoutEarlySample(incoming.sample || !shown.sample ? incoming : { ...incoming, sample: shown.sample });
}

/** A sample read while the export is still being read is not the preview's (it is empty or partial). */
function withoutEarlySample(item: ImportItem): ImportItem {
  return item.status === 'parsing' ? withoutSample(item) : item;
}

export function withoutSample(item: ImportItem): ImportItem {
  if (!('sample' in item)) return item;
  const { sample: _, ...rest } = item;
  return rest;
}

const num = (value: unknown): number => {
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : 0;
};
const text = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function countsFrom(value: unknown): ImportCounts {
  const c = record(value) ?? {};
  return {
    posts: num(c.posts),
    drafts: num(c.drafts),
    scheduled: num(c.scheduled),
    pages: num(c.pages),
    skipped: num(c.skipped),
    images: num(c.images),
    comments: num(c.comments),
  };
}

function progressFrom(value: unknown): ImportProgress | null {
  const p = record(value);
  if (!p) return null;
  const phase = PHASES.find((x) => x === p.phase) ?? 'parsing';
  return { phase, done: num(p.done), total: num(p.total) };
}

function reportFrom(value: unknown): ImportReport | null {
  const r = record(value);
  if (!r) return null;
  return {
    created: num(r.created),
    skipped: num(r.skipped),
    failed: num(r.failed),
    comments: num(r.comments),
    imagesFetched: num(r.imagesFetched),
    imagesFailed: num(r.imagesFailed),
  };
}

const SAMPLE_STATUSES: readonly ImportSample['status'][] = ['published', 'draft', 'scheduled', 'private'];

/** The renderer keys blocks by id: a block without one gets its place. */
function blocksFrom(value: unknown): Block[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((b: unknown, i) => {
    const block = record(b);
    if (!block || typeof block.type !== 'string') return [];
    return [{ id: text(block.id) ?? `sample-block-${i}`, type: block.type, data: record(block.data) ?? {} }];
  });
}

/** The sample posts of an answer; none (undefined) when it has no sample, as in events and lists. */
function sampleFrom(value: unknown): ImportSample[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.flatMap((v: unknown) => {
    const s = record(v);
    if (!s) return [];
    return [
      {
        title: typeof s.title === 'string' ? s.title : '',
        slug: typeof s.slug === 'string' ? s.slug : '',
        status: SAMPLE_STATUSES.find((x) => x === s.status) ?? 'draft',
        kind: s.kind === 'page' ? 'page' : 'post',
        date: text(s.date),
        blocks: blocksFrom(s.blocks),
      },
    ];
  });
}

/** A status the API gave as text, or null when it is none of an import's. */
export function statusFrom(value: unknown): ImportStatus | null {
  return STATUSES.find((s) => s === value) ?? null;
}

/**
 * An import of the API (`GET /api/import/{id}`, an item of `GET /api/import`, an `importProgress`
 * event's object) as the screen holds it, or null when it is not one.
 */
export function importFrom(value: unknown): ImportItem | null {
  const v = record(value);
  const id = v && text(v.id);
  const status = v && statusFrom(v.status);
  if (!v || !id || !status || !isImportSource(v.source)) return null;
  const sample = sampleFrom(v.sample);
  return {
    id,
    source: v.source,
    status,
    fileName: text(v.fileName),
    url: text(v.url),
    createdAt: text(v.createdAt) ?? '',
    updatedAt: text(v.updatedAt) ?? '',
    counts: countsFrom(v.counts),
    warnings: Array.isArray(v.warnings) ? v.warnings.filter((w): w is string => typeof w === 'string') : [],
    progress: progressFrom(v.progress),
    report: reportFrom(v.report),
    error: text(v.error),
    ...(sample ? { sample } : {}),
  };
}
