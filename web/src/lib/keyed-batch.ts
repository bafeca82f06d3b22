/**
 * Collects items for `windowMs` from the first one and then hands over the latest item per key,
 * in the order the keys first appeared. Realtime location and guest-visit events are debounced
 * this way (seed 000 §7: 1 s), so a burst costs one store update per user or guest.
 */
export interface KeyedBatch<T> {
  add(item: T): void;
  /** Forgets what is waiting and stops the timer. */
  clear(): void;
}

export function createKeyedBatch<T>(windowMs: number, keyOf: (item: T) => string, flush: (items: T[]) => void): KeyedBatch<T> {
  let waiting = new Map<string, T>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    add(item) {
      waiting.set(keyOf(item), item);
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        const items = [...waiting.values()];
        waiting = new Map();
        flush(items);
      }, windowMs);
    },
    clear() {
      if (timer) clearTimeout(timer);
      timer = null;
      waiting = new Map();
    },
  };
}
