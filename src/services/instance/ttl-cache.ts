/** A value that is loaded at most once per `ttlMs`; concurrent callers share one load. */
export interface TtlCached<T> {
  get(): Promise<T>;
  clear(): void;
}

/**
 * Keeps one value for `ttlMs` (0 or less: no caching). A failed load is forgotten at once so the
 * next caller retries. Lives in the closure of whoever creates it: one per app, never global.
 */
export function ttlCached<T>(ttlMs: number, load: () => Promise<T>, now: () => number = Date.now): TtlCached<T> {
  let entry: { value: Promise<T>; expiresAt: number } | undefined;
  return {
    get() {
      if (ttlMs <= 0) return load();
      const t = now();
      if (entry && entry.expiresAt > t) return entry.value;
      const value = load();
      const mine = { value, expiresAt: t + ttlMs };
      entry = mine;
      value.catch(() => {
        if (entry === mine) entry = undefined;
      });
      return value;
    },
    clear() {
      entry = undefined;
    },
  };
}
