import { configureStore } from '@reduxjs/toolkit';
import { errorMessage, REQUEST_TIMEOUT_MS } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
import { storeExtensions } from '@/lib/store-extensions';
import { mockApi } from '@/test/mock-api';
import { httpBaseQuery } from './base-query';
import { api } from './endpoints';

/**
 * A store with the API's cache and the middleware the API announced when its module loaded (as
 * app/store.ts adds them; app/store.test.ts checks that part).
 */
function store() {
  const extension = storeExtensions().find((e) => e.reducerPath === api.reducerPath);
  if (!extension) throw new Error('the API did not announce itself to the store');
  return configureStore({ reducer: { api: api.reducer }, middleware: (getDefault) => getDefault().concat(extension.middleware) });
}

describe('the generated endpoints go through the HTTP client', () => {
  it('ask under /api with credentials, JSON and the bearer token from localStorage.jwt', async () => {
    localStorage.setItem('jwt', 'abc');
    const fetchSpy = vi.fn(mockApi.fetch);
    vi.stubGlobal('fetch', fetchSpy);
    mockApi.on('POST', '/auth/login', { body: { _id: 'u1', fullName: 'Ada', email: 'a@x', role: 'user', token: 't', isAccountVerified: true } });

    const answer = await store().dispatch(api.endpoints.postAuthLogin.initiate({ body: { email: 'a@x', password: 'pw' } })).unwrap();

    expect(answer).toMatchObject({ _id: 'u1', token: 't' });
    const [url, init] = fetchSpy.mock.calls[0];
    expect(url).toBe('/api/auth/login');
    expect(init?.credentials).toBe('include');
    const call = mockApi.calls('POST', '/auth/login')[0];
    expect(call.headers.get('Authorization')).toBe('Bearer abc');
    expect(call.headers.get('Content-Type')).toBe('application/json');
    expect(call.body).toEqual({ email: 'a@x', password: 'pw' });
  });

  it('send no Authorization header without a stored token', async () => {
    mockApi.on('GET', '/post/count/all', { body: { count: 3 } });
    const result = await store().dispatch(api.endpoints.getPostCountAll.initiate());
    expect(result.data).toEqual({ count: 3 });
    expect(mockApi.calls('GET', '/post/count/all')[0].headers.has('Authorization')).toBe(false);
  });

  it('send `{}` for a POST without a body, as the client does, and leave out empty query values', async () => {
    mockApi.on('POST', '/follow/u2', { body: { message: 'Followed', isFollowing: true } });
    mockApi.on('GET', '/post/search-users', { body: { users: [] } });
    const s = store();
    await s.dispatch(api.endpoints.postFollowByUserId.initiate({ userId: 'u2' }));
    await s.dispatch(api.endpoints.getPostSearchUsers.initiate({}));
    await s.dispatch(api.endpoints.getPostSearchUsers.initiate({ query: 'ada' }));
    expect(mockApi.calls('POST', '/follow/u2')[0].body).toEqual({});
    const searches = mockApi.calls('GET', '/post/search-users');
    expect(searches.map((c) => c.url.search)).toEqual(['', '?query=ada']);
  });

  it("send an operation's header parameters (an Idempotency-Key), leaving out undefined ones", async () => {
    mockApi.on('POST', '/tips', { status: 201, body: { message: 'Thank you for your tip' } });
    const signal = new AbortController().signal;
    const call = { signal, abort: () => {}, dispatch: () => {}, getState: () => ({}), extra: undefined, endpoint: 'postTips', type: 'mutation' as const };
    await httpBaseQuery({ url: '/tips', method: 'POST', body: { amount: 500 }, headers: { 'Idempotency-Key': 'key-1', 'X-Other': undefined } }, call, {});
    const sent = mockApi.calls('POST', '/tips')[0];
    expect(sent.headers.get('Idempotency-Key')).toBe('key-1');
    expect(sent.headers.has('X-Other')).toBe(false);
    expect(sent.headers.get('Accept')).toBe('application/json');
  });

  it('encode path values', async () => {
    mockApi.on('GET', /^\/api\/follow\/status\//, { body: { isFollowing: false } });
    await store().dispatch(api.endpoints.getFollowStatusByUserId.initiate({ userId: 'a/b' }));
    expect(mockApi.calls('GET', '/follow/status/a%2Fb')).toHaveLength(1);
  });
});

describe('a failed call', () => {
  it("keeps the server's message and code", async () => {
    mockApi.on('POST', '/auth/login', { status: 400, body: { message: 'Invalid credentials', code: 'invalid_credentials' } });
    const result = await store().dispatch(api.endpoints.postAuthLogin.initiate({ body: { email: 'a', password: 'b' } }));
    expect(result.error).toEqual({ status: 400, code: 'invalid_credentials', message: 'Invalid credentials', data: { message: 'Invalid credentials', code: 'invalid_credentials' } });
    expect(errorMessage(result.error, 'Login failed')).toBe('Invalid credentials');
  });

  it('gives the spec text when the server says nothing', async () => {
    mockApi.on('POST', '/auth/signup', { status: 500 });
    const result = await store().dispatch(
      api.endpoints.postAuthSignup.initiate({ body: { fullName: 'A', email: 'a@x', password: 'secret', sendEmail: false } }),
    );
    expect(result.error).toMatchObject({ status: 500, message: null });
    expect(errorMessage(result.error, 'Signup failed')).toBe('Signup failed');
  });

  it('throws the same failure from unwrap()', async () => {
    mockApi.on('GET', '/user/get-user', { status: 404, body: { message: 'No such user', code: 'not_found' } });
    const error = await store()
      .dispatch(api.endpoints.getUserGetUser.initiate())
      .unwrap()
      .catch((e: unknown) => e);
    expect(errorMessage(error, 'Failed to fetch user')).toBe('No such user');
  });

  it('only logs a 401 (no redirect)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    mockApi.on('GET', '/user/get-user', { status: 401, body: { message: 'Not authenticated' } });
    const result = await store().dispatch(api.endpoints.getUserGetUser.initiate());
    expect(errorMessage(result.error, 'Failed to fetch user')).toBe('Not authenticated');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Unauthorized'));
    expect(window.location.pathname).toBe('/');
  });

  it('gives the spec text on a network failure', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('network down'))));
    const result = await store().dispatch(api.endpoints.getUserGetUser.initiate());
    expect(result.error).toEqual({ status: 0, code: 'network', message: null });
    expect(errorMessage(result.error, 'Failed to fetch user')).toBe('Failed to fetch user');
  });

  it('gives up after 10 seconds', async () => {
    expect(REQUEST_TIMEOUT_MS).toBe(10_000);
    vi.useFakeTimers();
    try {
      vi.stubGlobal(
        'fetch',
        vi.fn(
          (_: unknown, init: RequestInit) =>
            new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')))),
        ),
      );
      const s = store();
      const pending = s.dispatch(api.endpoints.getPostCountAll.initiate());
      await vi.advanceTimersByTimeAsync(9_999);
      expect(api.endpoints.getPostCountAll.select()(s.getState()).isLoading).toBe(true);
      await vi.advanceTimersByTimeAsync(1);
      const result = await pending;
      expect(result.error).toEqual({ status: 0, code: 'timeout', message: null });
      expect(errorMessage(result.error, 'Failed to fetch post counts')).toBe('Failed to fetch post counts');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the cache in the store', () => {
  it('is emptied when the signed-in user changes', async () => {
    mockApi.on('GET', '/post/count/my', { body: { count: 2 } });
    const s = store();
    await s.dispatch(api.endpoints.getPostCountMy.initiate());
    expect(api.endpoints.getPostCountMy.select()(s.getState()).data).toEqual({ count: 2 });
    s.dispatch(sessionUserChanged({ previousUserId: 'u1', userId: null }));
    expect(api.endpoints.getPostCountMy.select()(s.getState()).data).toBeUndefined();
  });
});
