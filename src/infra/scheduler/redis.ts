import type { Redis } from "ioredis";
import type { LeaseStore } from "./interface.ts";

// Deletes the hold only if this holder still has it.
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * Leases in Redis: a `due` key that lives one interval (the task is due again when it is gone)
 * and a `hold` key while it runs, both set only if absent.
 */
export class RedisLeaseStore implements LeaseStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  constructor(redis: Redis, namespace: string) {
    this.#redis = redis;
    this.#prefix = `${namespace}:scheduler:`;
  }
  async ensure(): Promise<void> {}
  async acquire(name: string, holder: string, intervalMs: number, holdMs: number): Promise<boolean> {
    const hold = `${this.#prefix}hold:${name}`;
    if ((await this.#redis.set(hold, holder, "PX", holdMs, "NX")) !== "OK") return false;
    if ((await this.#redis.set(`${this.#prefix}due:${name}`, holder, "PX", intervalMs, "NX")) === "OK") return true;
    await this.release(name, holder);
    return false;
  }
  async makeDue(name: string): Promise<void> {
    await this.#redis.del(`${this.#prefix}due:${name}`);
  }
  async release(name: string, holder: string): Promise<void> {
    await this.#redis.eval(RELEASE, 1, `${this.#prefix}hold:${name}`, holder);
  }
  async takeableAt(names: readonly string[]): Promise<Map<string, number>> {
    // The keys' remaining lives, in one round trip: -2 when a key is absent (due, or not held).
    const pipe = this.#redis.pipeline();
    for (const name of names) pipe.pttl(`${this.#prefix}due:${name}`).pttl(`${this.#prefix}hold:${name}`);
    const replies = (await pipe.exec()) ?? [];
    const now = Date.now();
    const at = new Map<string, number>();
    names.forEach((name, i) => {
      const [dueErr, due] = replies[2 * i] ?? [];
      const [holdErr, hold] = replies[2 * i + 1] ?? [];
      if (dueErr || holdErr) throw dueErr ?? holdErr;
      at.set(name, now + Math.max(0, Number(due), Number(hold)));
    });
    return at;
  }
}
