import type { RecentUse } from "../../db/repositories/trends.ts";
import { idAtTime } from "../../lib/ids.ts";

/**
 * Pacing of the trends scoring job. On SQLite every statement runs on the main thread, and a
 * chain of awaited statements never lets a waiting request in, so the job reads in small steps
 * (id windows of a few hours, a few items at a time) and after each step yields and rests as
 * long as the step held the thread (at most 200 ms): requests are answered between steps and the
 * job never takes more than half the thread. On PostgreSQL the rests cost a little time only.
 */
export class Pacer {
  #since = performance.now();

  /** Yields to waiting requests, resting as long as the work since the last rest took. */
  async rest(): Promise<void> {
    const busyMs = performance.now() - this.#since;
    await new Promise<void>((resolve) =>
      busyMs >= 1 ? setTimeout(resolve, Math.min(busyMs, 200)) : setImmediate(resolve),
    );
    this.#since = performance.now();
  }

  /**
   * `read` over consecutive id windows [from, to) of `stepMs` from `fromMs` on, the last one
   * open-ended (ids a little ahead of this clock count too), with a rest after each.
   */
  async windows<T>(
    fromMs: number,
    toMs: number,
    stepMs: number,
    read: (fromId: string, toId: string | undefined) => Promise<T[]>,
  ): Promise<T[]> {
    const out: T[] = [];
    for (let at = fromMs; at < toMs; at += stepMs) {
      const end = at + stepMs >= toMs ? undefined : idAtTime(new Date(at + stepMs));
      out.push(...(await read(idAtTime(new Date(at)), end)));
      await this.rest();
    }
    return out;
  }

  /** `read` over `ids` a few at a time, with a rest after each batch. */
  async batches<T>(ids: readonly string[], size: number, read: (ids: string[]) => Promise<T[]>): Promise<T[]> {
    const out: T[] = [];
    for (let i = 0; i < ids.length; i += size) {
      out.push(...(await read(ids.slice(i, i + size))));
      await this.rest();
    }
    return out;
  }
}

/** One use per (item, account), the latest, from uses read window by window. */
export function latestUses(uses: readonly RecentUse[]): RecentUse[] {
  const byPair = new Map<string, RecentUse>();
  for (const u of uses) {
    const key = `${u.itemId}:${u.accountId}`;
    const seen = byPair.get(key);
    if (seen === undefined || BigInt(u.lastId) > BigInt(seen.lastId)) byPair.set(key, u);
  }
  return [...byPair.values()];
}
