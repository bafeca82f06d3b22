/**
 * A per-test fake of the server's HTTP API. Handlers are registered with `mockApi.on(...)`;
 * any request without a handler fails the test (see setup.ts).
 */
export interface MockRequest {
  method: string;
  path: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

export type MockReply = { status?: number; body?: unknown; delayMs?: number } | Response;
type Handler = (request: MockRequest) => MockReply | Promise<MockReply>;

interface Route {
  method: string;
  path: string | RegExp;
  handler: Handler;
  once: boolean;
}

let routes: Route[] = [];
let unhandled: string[] = [];
export const requests: MockRequest[] = [];

function matches(route: Route, method: string, path: string) {
  if (route.method !== method) return false;
  return typeof route.path === 'string' ? route.path === path : route.path.test(path);
}

async function fakeFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
  const method = (init.method ?? 'GET').toUpperCase();
  let body: unknown = undefined;
  // A multipart upload is kept as the FormData sent (tests read its fields).
  if (init.body instanceof FormData) body = init.body;
  else if (typeof init.body === 'string') {
    try {
      body = JSON.parse(init.body);
    } catch {
      body = init.body;
    }
  }
  const request: MockRequest = { method, path: url.pathname, url, headers: new Headers(init.headers), body };
  requests.push(request);
  const index = routes.findIndex((r) => matches(r, method, url.pathname));
  if (index < 0) {
    const line = `${method} ${url.pathname}${url.search}`;
    unhandled.push(line);
    throw new TypeError(`Unhandled request: ${line}`);
  }
  const route = routes[index];
  if (route.once) routes.splice(index, 1);
  const reply = await route.handler(request);
  if (reply instanceof Response) return reply;
  if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
  if (init.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
  const status = reply.status ?? 200;
  const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
  return new Response(status === 204 ? null : text, {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export const mockApi = {
  fetch: fakeFetch,
  /**
   * Answers `method path` (path under /api, e.g. '/auth/login') with a fixed reply or a handler.
   * The latest registration for a path wins; a `once` route is used up by one request.
   */
  on(method: string, path: string | RegExp, reply: MockReply | Handler, options: { once?: boolean } = {}) {
    const fullPath = typeof path === 'string' ? `/api${path}` : path;
    const handler: Handler = typeof reply === 'function' ? reply : () => reply;
    routes.unshift({ method: method.toUpperCase(), path: fullPath, handler, once: options.once ?? false });
  },
  /** Requests made to `method path` so far. */
  calls(method: string, path: string): MockRequest[] {
    return requests.filter((r) => r.method === method.toUpperCase() && r.path === `/api${path}`);
  },
  reset() {
    routes = [];
    unhandled = [];
    requests.length = 0;
  },
  takeUnhandled(): string[] {
    const list = unhandled;
    unhandled = [];
    return list;
  },
};
