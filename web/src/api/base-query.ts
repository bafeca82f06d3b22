/**
 * RTK Query's base query: every generated endpoint (api/endpoints.ts) goes through the app's one
 * HTTP client, `lib/http.ts` `request`, so it keeps the client's rules: base `/api`, credentials
 * included, the bearer token from `localStorage.jwt`, the 10 s time-out, a 401 only logged, the
 * password asked again on `reauth_required`. An operation's header parameters (`Idempotency-Key`)
 * are sent as headers. Bodies are sent as the client's helpers send them
 * (`{}` for a POST, PATCH or PUT without one), query values that are undefined, null or empty are
 * left out.
 *
 * A failure is an `ApiFailure` (plain data, kept in the store): its `message` is the server's, or
 * null; `errorMessage(error, fallback)` gives the server's message or the spec's fallback text,
 * as for every other call.
 */
import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import { request, toApiFailure, type ApiFailure, type RequestOptions } from '@/lib/http';

type Method = NonNullable<RequestOptions['method']>;
type QueryValue = NonNullable<RequestOptions['query']>[string];

/** What a generated endpoint asks for: a path under `/api`, a method, a JSON body, query values. */
export interface ApiRequest {
  url: string;
  method?: string;
  body?: unknown;
  params?: Record<string, unknown>;
  /** `blob` for a download (the answer is read as a Blob). */
  responseType?: 'json' | 'blob';
  /** Longer than the default 10 s for a slow answer (maps' geo data). */
  timeoutMs?: number;
  /** Header parameters of the operation (`Idempotency-Key`); undefined ones are left out. */
  headers?: Record<string, string | undefined>;
}

const METHODS: readonly Method[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];
const WITH_BODY: readonly Method[] = ['POST', 'PATCH', 'PUT'];

function methodOf(value: string | undefined): Method {
  const method = (value ?? 'GET').toUpperCase();
  const known = METHODS.find((m) => m === method);
  if (!known) throw new Error(`Unsupported HTTP method ${method}`);
  return known;
}

/** Query values as the client takes them (a list is sent comma-separated). */
function queryOf(params: Record<string, unknown> | undefined): Record<string, QueryValue> | undefined {
  if (!params) return undefined;
  const query: Record<string, QueryValue> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) query[key] = value.join(',');
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') query[key] = value;
  }
  return query;
}

export const httpBaseQuery: BaseQueryFn<ApiRequest | string, unknown, ApiFailure> = async (args, { signal }) => {
  const { url, method: rawMethod, body, params, responseType, timeoutMs, headers } = typeof args === 'string' ? { url: args } : args;
  const method = methodOf(rawMethod);
  const sentHeaders = Object.fromEntries(Object.entries(headers ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  try {
    const data = await request<unknown>(url, {
      method,
      body: body === undefined && WITH_BODY.includes(method) ? {} : body,
      query: queryOf(params),
      // The fallback text belongs to whoever shows the error (`errorMessage`): none here.
      fallback: '',
      signal,
      ...(responseType ? { responseType } : {}),
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(Object.keys(sentHeaders).length > 0 ? { headers: sentHeaders } : {}),
    });
    return { data };
  } catch (error) {
    return { error: toApiFailure(error) };
  }
};
