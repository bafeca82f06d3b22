/**
 * An in-memory CacheStorage for unit tests of the service worker's code (jsdom has none): keys
 * are URL paths, a match hands out a copy of the stored response.
 */
const keyOf = (request: RequestInfo | URL) => new URL(typeof request === 'string' ? request : request instanceof URL ? request.href : request.url, 'http://localhost').pathname;

class FakeCache {
  readonly entries = new Map<string, Response>();

  match(request: RequestInfo | URL): Promise<Response | undefined> {
    return Promise.resolve(this.entries.get(keyOf(request))?.clone());
  }

  async put(request: RequestInfo | URL, response: Response): Promise<void> {
    // As the real one: the body is read now (a used body cannot be stored).
    const body = await response.arrayBuffer();
    this.entries.set(keyOf(request), new Response(body, { status: response.status, headers: response.headers }));
  }

  delete(request: RequestInfo | URL): Promise<boolean> {
    return Promise.resolve(this.entries.delete(keyOf(request)));
  }

  keys(): Promise<string[]> {
    return Promise.resolve([...this.entries.keys()]);
  }
}

export class FakeCaches {
  readonly caches = new Map<string, FakeCache>();

  open(name: string): Promise<FakeCache> {
    let cache = this.caches.get(name);
    if (!cache) {
      cache = new FakeCache();
      this.caches.set(name, cache);
    }
    return Promise.resolve(cache);
  }

  delete(name: string): Promise<boolean> {
    return Promise.resolve(this.caches.delete(name));
  }

  has(name: string): Promise<boolean> {
    return Promise.resolve(this.caches.has(name));
  }

  /** The paths stored in `name`, sorted. */
  paths(name: string): string[] {
    return [...(this.caches.get(name)?.entries.keys() ?? [])].sort();
  }

  /** As the worker's functions take it. */
  asCacheStorage(): CacheStorage {
    return this as unknown as CacheStorage;
  }
}
