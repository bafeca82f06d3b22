/**
 * The Import screen's state: the import on screen (started here, or brought back after a reload
 * from what the tab kept), what the writer asked and the server has not answered yet, and the
 * writer's earlier imports.
 * - The import on screen follows `importProgress` events and, as a fallback, `GET
 *   /api/import/{id}` (the screen polls while the server works). An answer older than what is
 *   shown is dropped: an import only moves forward (parsing → preview → importing → an end), and
 *   within a status a newer `updatedAt` wins. The sample, which events do not carry, is kept.
 * - Every import heard of is put in the list too, so it changes live.
 * - A change of user empties it all.
 */
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { injectReducers } from '@/app/store';
import { socketEvents } from '@/features/socket';
import { errorMessage, errorStatus } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
import { IMPORT_FALLBACK, importApi, type ImportInput } from './import-api';
import { rememberImport } from './import-memory';
import { importFrom, mergeImport, placeholderImport, statusFrom, withoutSample } from './import-view';
import type { ImportConfirmBody, ImportItem, PostImportApiResponse } from './import-types';

export type LoadStatus = 'idle' | 'loading' | 'succeeded' | 'failed';
/** A request about the import on screen, while it waits for its answer. */
export type ImportRequest = 'starting' | 'confirming' | 'cancelling' | 'removing';

export interface ImportsState {
  /** The import on screen, or null for the form. */
  currentId: string | null;
  current: ImportItem | null;
  /** Reading the import on screen failed before anything of it was known. */
  currentError: string | null;
  /** A read of the import on screen is on its way (polls do not pile up). */
  reading: boolean;
  pending: ImportRequest | null;
  /** The refusal of the last request about the import on screen. */
  requestError: string | null;
  /** Posts removed from the import on screen ("Remove the imported posts"). */
  removed: number | null;
  history: { items: ImportItem[]; status: LoadStatus; error: string | null };
}

export const initialImportsState = (): ImportsState => ({
  currentId: null,
  current: null,
  currentError: null,
  reading: false,
  pending: null,
  requestError: null,
  removed: null,
  history: { items: [], status: 'idle', error: null },
});

type Root = { imports: ImportsState; auth: { user?: { _id: string } | null } };
interface Refusal {
  message: string;
  status: number | null;
}
type Config = { state: Root; rejectValue: Refusal };

const refusal = (error: unknown, fallback: string): Refusal => ({ message: errorMessage(error, fallback), status: errorStatus(error) });

function remember(getState: () => Root, currentId: string | null) {
  const userId = getState().auth.user?._id;
  if (userId) rememberImport(userId, { currentId });
}

/** Uploads the export (or sends the feed's address); the import then reads it (`parsing`). */
export const startImport = createAsyncThunk<PostImportApiResponse, ImportInput, Config>(
  'imports/start',
  async (input, { getState, rejectWithValue }) => {
    try {
      const answer = await importApi.start(input);
      remember(getState, answer.id);
      return answer;
    } catch (e) {
      return rejectWithValue(refusal(e, IMPORT_FALLBACK.start));
    }
  },
  { condition: (_, { getState }) => getState().imports.pending === null },
);

/** Reads the import (with its sample): after a reload, on the way to the preview, and polling. */
export const fetchImport = createAsyncThunk<ImportItem, string, Config>(
  'imports/fetch',
  async (id, { getState, rejectWithValue }) => {
    try {
      const item = importFrom(await importApi.get(id));
      return item ?? rejectWithValue({ message: IMPORT_FALLBACK.read, status: null });
    } catch (e) {
      // Gone (or never the writer's): the tab forgets it.
      if (errorStatus(e) === 404 && getState().imports.currentId === id) remember(getState, null);
      return rejectWithValue(refusal(e, IMPORT_FALLBACK.read));
    }
  },
  { condition: (id, { getState }) => !(getState().imports.reading && getState().imports.currentId === id) },
);

type RequestConfig = Config & { pendingMeta: { kind: ImportRequest } };

/** A request about the import on screen; a 409 (its status changed meanwhile) reads it again. */
function currentRequest<T, A>(type: string, kind: ImportRequest, fallback: string, send: (id: string, arg: A) => Promise<T>) {
  return createAsyncThunk<T, A, RequestConfig>(
    type,
    async (arg, { dispatch, getState, rejectWithValue }) => {
      const id = getState().imports.currentId;
      if (!id) return rejectWithValue({ message: fallback, status: null });
      try {
        return await send(id, arg);
      } catch (e) {
        if (errorStatus(e) === 409) void dispatch(fetchImport(id));
        return rejectWithValue(refusal(e, fallback));
      }
    },
    {
      condition: (_, { getState }) => getState().imports.pending === null && getState().imports.currentId !== null,
      getPendingMeta: () => ({ kind }),
    },
  );
}

/** Imports what the preview showed, with the writer's options. */
export const confirmImport = currentRequest('imports/confirm', 'confirming', IMPORT_FALLBACK.confirm, (id, body: ImportConfirmBody) => importApi.confirm(id, body));
/** Stops the import (while it reads, waits or imports). */
export const cancelImport = currentRequest('imports/cancel', 'cancelling', IMPORT_FALLBACK.cancel, (id, _: void) => importApi.cancel(id));
/** Deletes the posts the import created. */
export const removeImportedPosts = currentRequest('imports/removePosts', 'removing', IMPORT_FALLBACK.remove, (id, _: void) => importApi.removePosts(id));

function requestStarted(state: ImportsState, action: { meta: { kind: ImportRequest } }) {
  state.pending = action.meta.kind;
  state.requestError = null;
}

function requestRefused(state: ImportsState, action: { payload?: Refusal }) {
  state.pending = null;
  state.requestError = action.payload?.message ?? null;
}

export const fetchImports = createAsyncThunk<ImportItem[], void, Config>('imports/fetchList', async (_, { rejectWithValue }) => {
  try {
    const { imports } = await importApi.list();
    return (imports ?? []).flatMap((i) => importFrom(i) ?? []);
  } catch (e) {
    return rejectWithValue(refusal(e, IMPORT_FALLBACK.list));
  }
});

/** "Import something else": back to the form (the tab forgets the import shown). */
export const dismissImport = createAsyncThunk<void, void, { state: Root }>('imports/dismiss', (_, { dispatch, getState }) => {
  remember(getState, null);
  dispatch(importDismissed());
});

/** Puts `item` (without its sample) in the list: replaced where it is, else first. */
function upsert(state: ImportsState, item: ImportItem) {
  const entry = withoutSample(item);
  const at = state.history.items.findIndex((i) => i.id === item.id);
  if (at < 0) state.history.items.unshift(entry);
  else state.history.items[at] = mergeImport(state.history.items[at], entry);
}

/** Takes news of an import: the one on screen moves on (unless the news is older), the list too. */
function heard(state: ImportsState, item: ImportItem) {
  if (item.id === state.currentId) state.current = mergeImport(state.current, item);
  upsert(state, state.current && item.id === state.current.id ? state.current : item);
}

const importsSlice = createSlice({
  name: 'imports',
  initialState: initialImportsState,
  reducers: {
    /** The tab kept an import on screen before a reload: it is shown again once read. */
    importResumed(state, action: PayloadAction<string>) {
      if (state.currentId !== null) return;
      state.currentId = action.payload;
      state.reading = false;
    },
    importDismissed(state) {
      state.currentId = null;
      state.reading = false;
      state.current = null;
      state.currentError = null;
      state.requestError = null;
      state.removed = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionUserChanged, () => initialImportsState())
      .addCase(startImport.pending, (state) => {
        state.pending = 'starting';
        state.requestError = null;
      })
      .addCase(startImport.fulfilled, (state, action) => {
        const { id, status } = action.payload;
        const input = action.meta.arg;
        state.pending = null;
        state.currentId = id;
        state.reading = false;
        state.currentError = null;
        state.removed = null;
        state.current = placeholderImport(id, statusFrom(status) ?? 'parsing', input.source, input.source === 'feed' ? null : input.file.name, input.source === 'feed' ? input.url : null);
        upsert(state, state.current);
      })
      .addCase(startImport.rejected, (state, action) => {
        state.pending = null;
        state.requestError = action.payload?.message ?? IMPORT_FALLBACK.start;
      })
      .addCase(fetchImport.pending, (state, action) => {
        if (action.meta.arg === state.currentId) state.reading = true;
      })
      .addCase(fetchImport.fulfilled, (state, action) => {
        if (action.meta.arg === state.currentId) {
          state.reading = false;
          state.currentError = null;
        }
        heard(state, action.payload);
      })
      .addCase(fetchImport.rejected, (state, action) => {
        if (action.meta.arg !== state.currentId) return;
        state.reading = false;
        if (action.payload?.status === 404) {
          state.currentId = null;
          state.current = null;
          state.currentError = null;
        } else if (!state.current) state.currentError = action.payload?.message ?? IMPORT_FALLBACK.read;
      })
      .addCase(socketEvents.importProgressReceived, (state, action) => {
        const item = importFrom(action.payload);
        if (item) heard(state, item);
      })
      .addCase(fetchImports.pending, (state) => {
        state.history.status = 'loading';
        state.history.error = null;
      })
      .addCase(fetchImports.fulfilled, (state, action) => {
        state.history = { items: action.payload.map(withoutSample), status: 'succeeded', error: null };
        if (state.current) upsert(state, state.current);
      })
      .addCase(fetchImports.rejected, (state, action) => {
        state.history.status = 'failed';
        state.history.error = action.payload?.message ?? IMPORT_FALLBACK.list;
      });

    builder
      .addCase(confirmImport.pending, requestStarted)
      .addCase(confirmImport.rejected, requestRefused)
      .addCase(cancelImport.pending, requestStarted)
      .addCase(cancelImport.rejected, requestRefused)
      .addCase(removeImportedPosts.pending, requestStarted)
      .addCase(removeImportedPosts.rejected, requestRefused);
    builder
      .addCase(confirmImport.fulfilled, (state, action) => {
        state.pending = null;
        if (state.current && state.current.id === action.payload.id) {
          heard(state, { ...state.current, status: statusFrom(action.payload.status) ?? 'importing', progress: null });
        }
      })
      .addCase(cancelImport.fulfilled, (state, action) => {
        state.pending = null;
        if (state.current && state.current.id === action.payload.id) heard(state, { ...state.current, status: statusFrom(action.payload.status) ?? 'cancelled' });
      })
      .addCase(removeImportedPosts.fulfilled, (state, action) => {
        state.pending = null;
        state.removed = action.payload.removed;
      });
  },
});

export const { importResumed, importDismissed } = importsSlice.actions;
export const importsReducer = importsSlice.reducer;
// Loaded with the settings page (never a reader's first load).
injectReducers({ imports: importsReducer });

const EMPTY = initialImportsState();
export const selectImports = (state: { imports?: ImportsState }): ImportsState => state.imports ?? EMPTY;
