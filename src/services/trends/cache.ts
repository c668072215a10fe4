import type { AppContext } from "../../context.ts";

/** The bus channel on which any process announces that trends changed (scoring or review). */
export const TRENDS_CHANNEL = "trends:changed";

/**
 * How long an answer may be kept at most: the lists change only when scored or reviewed (both
 * drop the cache everywhere), but the posts in them change (counts, edits, deletions).
 */
const TTL_MS = 15_000;
const MAX_ENTRIES = 500;

export interface CachedAnswer {
  body: string | Buffer;
  link: string;
}

/**
 * The anonymous answers of the trends endpoints, per process, by (kind, languages, offset,
 * limit). Dropped in this process at once and in the others through the event bus.
 */
export class TrendsCache {
  readonly #entries = new Map<string, CachedAnswer & { at: number }>();
  #subscribed = false;
  readonly #ctx: AppContext;

  constructor(ctx: AppContext) {
    this.#ctx = ctx;
  }

  get(key: string): CachedAnswer | undefined {
    this.#subscribe();
    const e = this.#entries.get(key);
    if (e === undefined) return undefined;
    if (Date.now() - e.at > TTL_MS) {
      this.#entries.delete(key);
      return undefined;
    }
    return e;
  }

  set(key: string, answer: CachedAnswer): void {
    this.#subscribe();
    this.#entries.set(key, { ...answer, at: Date.now() });
    if (this.#entries.size > MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  clear(): void {
    this.#entries.clear();
  }

  #subscribe(): void {
    if (this.#subscribed) return;
    this.#subscribed = true;
    const sub = this.#ctx.bus.subscribe(TRENDS_CHANNEL, () => this.clear());
    // A lost subscription is taken again at the next use; the TTL bounds what it missed.
    sub.ready.catch(() => {
      this.#subscribed = false;
    });
  }
}

const caches = new WeakMap<AppContext, TrendsCache>();

export function trendsCache(ctx: AppContext): TrendsCache {
  let cache = caches.get(ctx);
  if (cache === undefined) {
    cache = new TrendsCache(ctx);
    caches.set(ctx, cache);
  }
  return cache;
}

/** Drops the cached trends answers in this process and, through the bus, in every other. */
export async function dropTrendsCaches(ctx: AppContext): Promise<void> {
  caches.get(ctx)?.clear();
  await ctx.bus.publish(TRENDS_CHANNEL, "changed", {});
}
