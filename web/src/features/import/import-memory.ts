/**
 * What the Import screen keeps per tab (sessionStorage) per writer, so a reload loses nothing:
 * the source chosen, the feed's address typed, and the import on screen (shown again, and
 * followed again while it runs).
 */
import { sessionStore } from '@/lib/storage';
import { DEFAULT_SOURCE, isImportSource } from './import-sources';
import type { ImportSource } from './import-types';

export interface ImportMemory {
  source: ImportSource;
  feedUrl: string;
  /** The import on screen, or null for the form. */
  currentId: string | null;
}

const KEY_PREFIX = 'importScreen:';

export function importMemoryKey(userId: string): string {
  return `${KEY_PREFIX}${userId}`;
}

export const emptyImportMemory = (): ImportMemory => ({ source: DEFAULT_SOURCE, feedUrl: '', currentId: null });

export function readImportMemory(userId: string): ImportMemory {
  const raw = sessionStore.get(importMemoryKey(userId));
  if (!raw) return emptyImportMemory();
  try {
    const m = JSON.parse(raw) as Record<string, unknown>;
    return {
      source: isImportSource(m.source) ? m.source : DEFAULT_SOURCE,
      feedUrl: typeof m.feedUrl === 'string' ? m.feedUrl : '',
      currentId: typeof m.currentId === 'string' && /^[0-9a-f]{24}$/i.test(m.currentId) ? m.currentId : null,
    };
  } catch {
    return emptyImportMemory();
  }
}

/** Changes some of what is kept (the rest stays). */
export function rememberImport(userId: string, changes: Partial<ImportMemory>): void {
  sessionStore.set(importMemoryKey(userId), JSON.stringify({ ...readImportMemory(userId), ...changes }));
}
