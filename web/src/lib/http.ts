/**
 * The one HTTP client of the app: base `/api`, credentials included, bearer token from
 * `localStorage.jwt`, a 10 s time-out, and errors whose message is the server's `message`
 * or the caller's fallback text from the spec's error catalogue. A 401 is only logged.
 */
import { textOf } from './format';
import { storage, TOKEN_KEY } from './storage';

export const API_BASE = '/api';
export const REQUEST_TIMEOUT_MS = 10_000;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly data: unknown;

  constructor(message: string, status: number, code?: string, data?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.data = data;
  }
}

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Sent as JSON; a `FormData` is sent as it is (multipart, the browser sets its boundary). */
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** Spec fallback used when the server gives no `message`. */
  fallback: string;
  timeoutMs?: number;
  /** Lets the request outlive the page (reading time sent as the reader leaves). */
  keepalive?: boolean;
  /** `blob`: a successful answer is read as a Blob (downloads); errors are read as usual. */
  responseType?: 'json' | 'blob';
  /** Cancels the request from outside (RTK Query aborts a query nobody needs any more). */
  signal?: AbortSignal;
  /** Extra request headers (an `Idempotency-Key` for a call that moves money). */
  headers?: Record<string, string>;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`;
}

function messageOf(data: unknown): string | undefined {
  if (data && typeof data === 'object' && 'message' in data) {
    const message = data.message;
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return undefined;
}

/**
 * Step-up: the server answers 403 `reauth_required` to what moves money or power when the
 * password was not confirmed in the last ten minutes. The app's dialog registers here; it asks
 * for the password (and a code) and resolves `true` once confirmed, `false` when cancelled.
 */
type ReauthHandler = () => Promise<boolean>;
let reauthHandler: ReauthHandler | null = null;

export function setReauthHandler(handler: ReauthHandler | null) {
  reauthHandler = handler;
}

export const REAUTH_REQUIRED = 'reauth_required';

/** Runs a request; on `reauth_required` asks for the password through the dialog and retries once. */
export async function request<T>(path: string, options: RequestOptions): Promise<T> {
  try {
    return await send<T>(path, options);
  } catch (error) {
    if (error instanceof ApiError && error.code === REAUTH_REQUIRED && reauthHandler && path !== '/auth/reauth') {
      if (await reauthHandler()) return send<T>(path, options);
    }
    throw error;
  }
}

async function send<T>(path: string, options: RequestOptions): Promise<T> {
  const { method = 'GET', body, query, fallback, timeoutMs = REQUEST_TIMEOUT_MS, keepalive, responseType = 'json', signal } = options;
  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
  const multipart = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  const token = storage.get(TOKEN_KEY);
  if (token) headers.Authorization = `Bearer ${token}`;

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const cancel = () => controller.abort();
  if (signal?.aborted) cancel();
  signal?.addEventListener('abort', cancel);
  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
      signal: controller.signal,
      ...(keepalive ? { keepalive: true } : {}),
    });
    if (responseType === 'blob' && response.ok) return (await response.blob()) as T;
  } catch (cause) {
    throw new ApiError(fallback, 0, signal?.aborted ? 'aborted' : controller.signal.aborted ? 'timeout' : 'network', cause);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', cancel);
  }

  const text = await response.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }

  if (!response.ok) {
    if (response.status === 401) {
      console.warn(`Unauthorized request: ${method} ${path}`);
    }
    const code =
      data && typeof data === 'object' && 'code' in data ? textOf(data.code) : undefined;
    throw new ApiError(messageOf(data) ?? fallback, response.status, code, data);
  }
  return data as T;
}

/**
 * A failed request as plain data, for what keeps errors in the store (RTK Query's cache, through
 * `api/base-query.ts`): the HTTP status (0 when no answer came: `code` is then `timeout`,
 * `network` or `aborted`), the server's `code`, and the server's `message` — null when it gave
 * none, so that whoever shows it puts the spec's fallback text in its place (`errorMessage`).
 */
export interface ApiFailure {
  status: number;
  code: string | null;
  message: string | null;
  /** The answer's body when there was one (JSON). */
  data?: unknown;
}

/** An `ApiError` (or anything else thrown by a request) as an `ApiFailure`. */
export function toApiFailure(error: unknown): ApiFailure {
  if (error instanceof ApiError) {
    // Status 0: no answer came; `data` is then the cause (not the server's, not plain data).
    if (error.status === 0) return { status: 0, code: error.code ?? 'network', message: null };
    return { status: error.status, code: error.code ?? null, message: messageOf(error.data) ?? null, data: error.data };
  }
  return { status: 0, code: 'network', message: null };
}

export function isApiFailure(error: unknown): error is ApiFailure {
  return !!error && typeof error === 'object' && 'status' in error && typeof error.status === 'number' && 'message' in error;
}

/** The server's `code` of a failed call (an `ApiError` or an `ApiFailure`), or null. */
export function errorCode(error: unknown): string | null {
  if (error instanceof ApiError) return error.code ?? null;
  return isApiFailure(error) ? error.code : null;
}

/** The HTTP status of a failed call (0 when no answer came), or null for anything else. */
export function errorStatus(error: unknown): number | null {
  if (error instanceof ApiError || isApiFailure(error)) return error.status;
  return null;
}

/**
 * The text to show for a failed call: the server's message when it gave one, else the spec's
 * fallback text. Takes an `ApiError` (thrown by `request`), an `ApiFailure` (a query's or
 * mutation's `error`, or what `unwrap()` throws) or any other error (its own message).
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.message || fallback;
  if (isApiFailure(error)) return error.message || fallback;
  if (error instanceof Error && error.message) return error.message;
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string' && error.message) return error.message;
  return fallback;
}

export const http = {
  get: <T>(path: string, fallback: string, query?: RequestOptions['query']) =>
    request<T>(path, { method: 'GET', fallback, query }),
  post: <T>(path: string, body: unknown, fallback: string) =>
    request<T>(path, { method: 'POST', body: body ?? {}, fallback }),
  patch: <T>(path: string, body: unknown, fallback: string) =>
    request<T>(path, { method: 'PATCH', body: body ?? {}, fallback }),
  put: <T>(path: string, body: unknown, fallback: string) =>
    request<T>(path, { method: 'PUT', body: body ?? {}, fallback }),
  delete: <T>(path: string, fallback: string, body?: unknown) =>
    request<T>(path, { method: 'DELETE', body, fallback }),
};
