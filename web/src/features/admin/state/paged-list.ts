/**
 * What every section of the administrator state shares: a paged list (items with the page,
 * total pages and total of seed 001 §3), its loading/loaded/failed transitions, the live
 * prepend capped at 10, and the thunk factory that turns a failure into the server's message or
 * the spec's fallback text.
 */
import { createAsyncThunk } from '@reduxjs/toolkit';
import { textOf } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { ADMIN_PAGE_SIZE } from '../admin-api';
import type { Status } from '../admin-types';

/** Realtime lists of new contact messages and reports are capped at 10 (seed 001 §9). */
export const LIVE_LIST_CAP = 10;

export interface PagedList<T> {
  items: T[];
  page: number;
  totalPages: number;
  total: number;
  status: Status;
  error: string | null;
}

/** One page as the thunks answer it. */
export interface Page<T> {
  items: T[];
  total: number;
  totalPages: number;
  page: number;
}

export function emptyList<T>(): PagedList<T> {
  return { items: [], page: 1, totalPages: 0, total: 0, status: 'idle', error: null };
}

export interface ActionResult<T> {
  status: Status;
  message: string | null;
  error: string | null;
  results: T[];
}

export function idleAction<T>(): ActionResult<T> {
  return { status: 'idle', message: null, error: null, results: [] };
}

/** Total pages from a total (seed 001 §4: the ceiling of total divided by 10). */
export const totalPagesOf = (total: number, pageSize = ADMIN_PAGE_SIZE) => Math.ceil(Math.max(0, total) / pageSize);

/** A page from a server answer: its items, its total (read from `totalKey`), pages and page. */
export function pageFrom<T>(items: T[] | undefined | null, total: unknown, r: { totalPages?: unknown; page?: unknown } | null | undefined, asked: number): Page<T> {
  const count = Number(total ?? 0);
  return { items: items ?? [], total: count, totalPages: Number(r?.totalPages ?? totalPagesOf(count)), page: Number(r?.page ?? asked) };
}

export function loading(list: { status: Status; error: string | null }) {
  list.status = 'loading';
  list.error = null;
}

export function loaded<T>(list: PagedList<T>, r: Page<T>) {
  list.items = r.items;
  list.total = r.total;
  list.totalPages = r.totalPages;
  list.page = r.page;
  list.status = 'succeeded';
  list.error = null;
}

export function failed(list: { status: Status; error: string | null }, error: string | undefined, fallback: string) {
  list.status = 'failed';
  list.error = error ?? fallback;
}

/** Removes an item and lowers the total (seed 001 §4). */
export function removeFrom<T extends { _id: string }>(list: PagedList<T>, id: string) {
  list.items = list.items.filter((item) => item._id !== id);
  list.total = Math.max(0, list.total - 1);
  list.totalPages = totalPagesOf(list.total);
}

/** A live arrival at the front, capped at 10; false when the list already had it. */
export function prependLive<T extends { _id: string }>(list: PagedList<T>, item: T) {
  if (list.items.some((i) => i._id === item._id)) return false;
  list.items = [item, ...list.items].slice(0, LIVE_LIST_CAP);
  list.total += 1;
  list.totalPages = totalPagesOf(list.total);
  return true;
}

export const str = textOf;

export const idOf = (payload: Record<string, unknown>, ...keys: string[]) => {
  for (const key of keys) {
    const found = payload[key];
    if (typeof found === 'string' && found) return found;
  }
  return '';
};

/** The thunks of a section that reads its own part of `state.admin`. */
export function sectionThunk<S>() {
  type Config = { rejectValue: string; state: { admin: S } };
  return function thunk<R, A>(type: string, fallback: string, run: (arg: A, api: { getState: () => { admin: S } }) => Promise<R>) {
    return createAsyncThunk<R, A, Config>(`admin/${type}`, async (arg, { rejectWithValue, getState }) => {
      try {
        return await run(arg, { getState });
      } catch (e) {
        return rejectWithValue(errorMessage(e, fallback));
      }
    });
  };
}
