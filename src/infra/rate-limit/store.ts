import type { Redis } from "ioredis";

/** Fixed-window counters: `hit` counts one request in the window and says how many so far. */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
}

/** Counters in this process (embedded profile). Old windows are swept as they expire. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #counters = new Map<string, { count: number; resetAt: number }>();
  #lastSweep = 0;

  async hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }> {
    const now = Date.now();
    if (now - this.#lastSweep > 60_000) this.#sweep(now);
    const resetAt = Math.floor(now / windowMs) * windowMs + windowMs;
    const k = `${key}:${resetAt}`;
    let c = this.#counters.get(k);
    if (c === undefined) {
      c = { count: 0, resetAt };
      this.#counters.set(k, c);
    }
    c.count++;
    return { count: c.count, resetAt };
  }

  #sweep(now: number): void {
    this.#lastSweep = now;
    for (const [k, v] of this.#counters) if (v.resetAt <= now) this.#counters.delete(k);
  }
}

/** Counters in Redis, shared by every process (scale-out profile). */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  constructor(redis: Redis, namespace: string) {
    this.#redis = redis;
    this.#prefix = `${namespace}:rl:`;
  }

  async hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }> {
    const now = Date.now();
    const resetAt = Math.floor(now / windowMs) * windowMs + windowMs;
    const k = `${this.#prefix}${key}:${resetAt}`;
    const res = await this.#redis
      .multi()
      .incr(k)
      .pexpire(k, windowMs + 1000)
      .exec();
    const count = Number(res?.[0]?.[1] ?? 1);
    return { count, resetAt };
  }
}
