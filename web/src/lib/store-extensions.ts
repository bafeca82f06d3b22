/**
 * Parts of the store that come with code loaded on demand: a reducer under its own key and the
 * middleware that goes with it. The API cache (`api/base-api.ts`, RTK Query) is one: a reader's
 * first load does not carry it, and it joins the store when the first screen that needs it loads.
 * The module that owns such a part announces it here once (`extendStore`); `app/store.ts` adds it
 * to every store, those made before and those made after.
 */
import type { Middleware, Reducer } from '@reduxjs/toolkit';

export interface StoreExtension {
  reducerPath: string;
  reducer: Reducer;
  middleware: Middleware[];
}

const extensions: StoreExtension[] = [];
const listeners = new Set<(extension: StoreExtension) => void>();

/** Announces a part of the store (once per reducer path; later calls do nothing). */
export function extendStore(extension: StoreExtension): void {
  if (extensions.some((e) => e.reducerPath === extension.reducerPath)) return;
  extensions.push(extension);
  for (const listener of listeners) listener(extension);
}

/** Calls `listener` with every part announced so far, then with each one announced later. */
export function onStoreExtended(listener: (extension: StoreExtension) => void): () => void {
  for (const extension of extensions) listener(extension);
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The parts announced so far. */
export function storeExtensions(): readonly StoreExtension[] {
  return extensions;
}
