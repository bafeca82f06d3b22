import { mockApi } from '@/test/mock-api';
import { ApiError, buildUrl, REQUEST_TIMEOUT_MS, request, setReauthHandler } from './http';

describe('http', () => {
  it('builds URLs under /api and drops empty query values', () => {
    expect(buildUrl('/post/search-users', { query: 'ada', page: 2, after: undefined, empty: '' })).toBe(
      '/api/post/search-users?query=ada&page=2',
    );
  });

  it('sends credentials, JSON and the bearer token from localStorage.jwt', async () => {
    localStorage.setItem('jwt', 'abc');
    const fetchSpy = vi.fn(mockApi.fetch);
    vi.stubGlobal('fetch', fetchSpy);
    mockApi.on('POST', '/auth/login', { body: { ok: true } });

    await request('/auth/login', { method: 'POST', body: { email: 'a' }, fallback: 'Login failed' });

    const [, init] = fetchSpy.mock.calls[0];
    expect(init?.credentials).toBe('include');
    const call = mockApi.calls('POST', '/auth/login')[0];
    expect(call.headers.get('Authorization')).toBe('Bearer abc');
    expect(call.headers.get('Content-Type')).toBe('application/json');
    expect(call.body).toEqual({ email: 'a' });
  });

  it('sends a FormData body as it is (multipart), without a JSON content type', async () => {
    localStorage.setItem('jwt', 'abc');
    mockApi.on('POST', '/import', { status: 202, body: { id: 'i1', status: 'parsing' } });
    const form = new FormData();
    form.append('source', 'wordpress');
    form.append('file', new File(['<rss/>'], 'export.xml', { type: 'text/xml' }));

    await request('/import', { method: 'POST', body: form, fallback: 'Upload failed' });

    const call = mockApi.calls('POST', '/import')[0];
    expect(call.headers.has('Content-Type')).toBe(false);
    expect(call.headers.get('Authorization')).toBe('Bearer abc');
    expect(call.body).toBe(form);
  });

  it('sends no Authorization header without a stored token', async () => {
    mockApi.on('GET', '/auth/check', { body: {} });
    await request('/auth/check', { fallback: 'Auth check failed' });
    expect(mockApi.calls('GET', '/auth/check')[0].headers.has('Authorization')).toBe(false);
  });

  it('asks for the password on reauth_required and sends the request again once confirmed', async () => {
    mockApi.on('POST', '/payment/bank-details', { status: 403, body: { message: 'Please confirm your password', code: 'reauth_required' } });
    const asked = vi.fn(() => Promise.resolve(true));
    setReauthHandler(asked);
    try {
      const error = await request<never>('/payment/bank-details', { method: 'POST', body: {}, fallback: 'x' }).catch((e: ApiError) => e);
      expect(asked).toHaveBeenCalledTimes(1);
      // Sent twice: the refusal, then the retry after the confirmation (refused again here).
      expect(mockApi.calls('POST', '/payment/bank-details')).toHaveLength(2);
      expect(error.code).toBe('reauth_required');
      // Cancelled: the refusal goes back to the caller without a retry.
      asked.mockImplementation(() => Promise.resolve(false));
      await request<never>('/payment/bank-details', { method: 'POST', body: {}, fallback: 'x' }).catch(() => undefined);
      expect(mockApi.calls('POST', '/payment/bank-details')).toHaveLength(3);
    } finally {
      setReauthHandler(null);
    }
  });

  it("uses the server's message when there is one", async () => {
    mockApi.on('POST', '/auth/login', { status: 400, body: { message: 'Invalid credentials', code: 'invalid_credentials' } });
    const error = await request<never>('/auth/login', { method: 'POST', body: {}, fallback: 'Login failed' }).catch((e: ApiError) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Invalid credentials');
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_credentials');
  });

  it('falls back to the spec text when the server gives no message', async () => {
    mockApi.on('POST', '/auth/signup', { status: 500 });
    await expect(request('/auth/signup', { method: 'POST', body: {}, fallback: 'Signup failed' })).rejects.toThrow('Signup failed');
  });

  it('falls back to the spec text on a network failure', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('network down'))));
    await expect(request('/user/get-user', { fallback: 'Failed to fetch user' })).rejects.toThrow('Failed to fetch user');
  });

  it('only logs a 401 (no redirect)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    mockApi.on('GET', '/user/get-user', { status: 401, body: { message: 'Not authenticated' } });
    await expect(request('/user/get-user', { fallback: 'Failed to fetch user' })).rejects.toThrow('Not authenticated');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Unauthorized'));
    expect(window.location.pathname).toBe('/');
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
      const pending = request<never>('/post/count/all', { fallback: 'Failed to fetch post counts' }).catch((e: ApiError) => e);
      await vi.advanceTimersByTimeAsync(10_000);
      const error = await pending;
      expect(error.message).toBe('Failed to fetch post counts');
      expect(error.code).toBe('timeout');
    } finally {
      vi.useRealTimers();
    }
  });
});
