/**
 * The sources a writer can import from, as the form offers them, and the words the screen uses
 * for an import's status, phase and counts.
 */
import type { ImportCounts, ImportPhase, ImportReport, ImportSource, ImportStatus } from './import-types';

export interface SourceChoice {
  value: ImportSource;
  /** The radio's label. */
  label: string;
  /** The platform's name in sentences ("a WordPress export"). */
  name: string;
  /** The file's extension (none for a feed) and the file input's `accept`. */
  extension: string | null;
  accept: string | null;
  /** Where the writer gets the file (or what the address is). */
  where: string;
}

export const SOURCES: readonly SourceChoice[] = [
  {
    value: 'wordpress',
    label: 'WordPress (.xml)',
    name: 'WordPress',
    extension: '.xml',
    accept: '.xml,text/xml,application/xml',
    where: 'In WordPress: Tools → Export → All content.',
  },
  {
    value: 'medium',
    label: 'Medium (.zip)',
    name: 'Medium',
    extension: '.zip',
    accept: '.zip,application/zip',
    where: 'In Medium: Settings → Security and apps → Download your information.',
  },
  {
    value: 'substack',
    label: 'Substack (.zip)',
    name: 'Substack',
    extension: '.zip',
    accept: '.zip,application/zip',
    where: 'In Substack: Settings → Import/Export → Export your data.',
  },
  {
    value: 'ghost',
    label: 'Ghost (.json)',
    name: 'Ghost',
    extension: '.json',
    accept: '.json,application/json',
    where: 'In Ghost: Settings → Advanced → Import/Export → Export content.',
  },
  {
    value: 'pressroom',
    label: 'Pressroom export (.zip)',
    name: 'Pressroom',
    extension: '.zip',
    accept: '.zip,application/zip',
    where: 'On the other Pressroom: Settings → Your data → Download my data.',
  },
  {
    value: 'feed',
    label: 'A feed (RSS, Atom or JSON Feed)',
    name: 'feed',
    extension: null,
    accept: null,
    where: 'The address of a blog’s RSS, Atom or JSON Feed. A feed usually lists only the latest posts.',
  },
];

export const DEFAULT_SOURCE: ImportSource = 'wordpress';

export function sourceChoice(value: ImportSource): SourceChoice {
  return SOURCES.find((s) => s.value === value) ?? SOURCES[0];
}

export function isImportSource(value: unknown): value is ImportSource {
  return SOURCES.some((s) => s.value === value);
}

/** An import's source in a list ("WordPress", "Feed"). */
export function sourceName(value: ImportSource): string {
  return value === 'feed' ? 'Feed' : sourceChoice(value).name;
}

export const STATUS_TEXT: Record<ImportStatus, string> = {
  parsing: 'Reading',
  preview: 'Waiting for your confirmation',
  importing: 'Importing',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const PHASE_TEXT: Record<ImportPhase, string> = {
  parsing: 'Reading the export',
  converting: 'Converting the posts',
  images: 'Fetching the images',
  writing: 'Writing the posts',
  done: 'Finishing',
};

/** The counts of a preview, in the order shown. */
export const COUNT_LABELS: readonly { key: keyof ImportCounts; label: string }[] = [
  { key: 'posts', label: 'Posts' },
  { key: 'drafts', label: 'Drafts' },
  { key: 'scheduled', label: 'Scheduled' },
  { key: 'pages', label: 'Pages' },
  { key: 'skipped', label: 'Skipped' },
  { key: 'images', label: 'Images' },
  { key: 'comments', label: 'Comments' },
];

/** The figures of a finished import, in the order shown. */
export const REPORT_LABELS: readonly { key: keyof ImportReport; label: string }[] = [
  { key: 'created', label: 'Posts created' },
  { key: 'skipped', label: 'Already imported' },
  { key: 'failed', label: 'Failed' },
  { key: 'comments', label: 'Comments' },
  { key: 'imagesFetched', label: 'Images fetched' },
  { key: 'imagesFailed', label: 'Images failed' },
];

/** Statuses after which nothing changes any more. */
export function isFinal(status: ImportStatus): boolean {
  return status === 'done' || status === 'failed' || status === 'cancelled';
}

/** Statuses in which the server is working (the screen follows it live and polls). */
export function isWorking(status: ImportStatus): boolean {
  return status === 'parsing' || status === 'importing';
}

/**
 * How many posts confirming creates: the export's posts (drafts and scheduled ones are among
 * them) and its pages, which arrive as posts too.
 */
export function postsToImport(counts: ImportCounts): number {
  return counts.posts + counts.pages;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What is wrong with the chosen file before sending it, or null. */
export function fileProblem(source: SourceChoice, file: File | null, maxBytes: number): string | null {
  if (!file) return `Choose the ${source.name} export file to upload.`;
  if (file.size === 0) return `“${file.name}” is empty: choose the export file again.`;
  if (file.size > maxBytes) return `“${file.name}” is larger than the ${Math.round(maxBytes / (1024 * 1024))} MB an import can be.`;
  if (source.extension && !file.name.toLowerCase().endsWith(source.extension)) {
    return `A ${source.name} export is a ${source.extension} file: “${file.name}” is not one.`;
  }
  return null;
}

/** What is wrong with a feed's address before sending it, or null. */
export function feedUrlProblem(value: string): string | null {
  const text = value.trim();
  if (!text) return 'Enter the address of the feed.';
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return null;
  } catch {
    /* not an address */
  }
  return 'Enter the feed’s full address, starting with https://';
}
