/**
 * The RTK Query API the generated endpoints join (api/endpoints.ts, written by
 * scripts/api-endpoints.mjs from src/api/openapi.json). Its cache lives in the store under `api`;
 * the module announces itself to the store when it loads (lib/store-extensions.ts), so code that
 * uses it is never part of a reader's first load (scripts/bundle-budget.mjs checks that). When the
 * signed-in user changes, the cache is emptied, as the slices drop that user's data.
 *
 * Code in a reader's first load that needs an endpoint loads this module when it needs it
 * (`api/on-demand.ts`).
 */
import type { Middleware } from '@reduxjs/toolkit';
import { createApi } from '@reduxjs/toolkit/query/react';
import { sessionUserChanged } from '@/lib/session';
import { extendStore } from '@/lib/store-extensions';
import { httpBaseQuery } from './base-query';

export const api = createApi({
  reducerPath: 'api',
  baseQuery: httpBaseQuery,
  // A screen asks again each time it opens, as it always has (what the cache already holds
  // shows meanwhile); two screens asking the same at once share one request.
  refetchOnMountOrArgChange: true,
  endpoints: () => ({}),
});

export type ApiState = ReturnType<typeof api.reducer>;

/** Nothing of one account's answers shows to the next (see lib/session.ts). */
const resetOnUserChange: Middleware = (store) => (next) => (action) => {
  const result = next(action);
  if (sessionUserChanged.match(action)) store.dispatch(api.util.resetApiState());
  return result;
};

extendStore({ reducerPath: api.reducerPath, reducer: api.reducer, middleware: [api.middleware, resetOnUserChange] });
