import type { Redis } from "ioredis";
import type { JobState, JobSummary, QueueState } from "./interface.ts";
import { CLAIM, COMPLETE, ENQUEUE, EXTEND, KILL, RETRY } from "./redis-scripts.ts";

/** Jobs per script call or pipeline when many are enqueued or completed at once. */
const CHUNK = 500;

import { type QueueOptions, StoreJobQueue } from "./runner.ts";
import type { ClaimedJob, JobStore, NewJob } from "./store.ts";

/** Dead jobs kept for inspection, per job name. */
const DEAD_KEPT = 1000;

/** Jobs in Redis (the scale-out profile); the layout is described in `redis-scripts.ts`. */
export class RedisJobStore implements JobStore {
  readonly #redis: Redis;
  readonly #p: string;
  constructor(redis: Redis, namespace: string) {
    this.#redis = redis;
    this.#p = `${namespace}:jobs:`;
  }

  async #eval(script: string, ...args: (string | number)[]): Promise<unknown> {
    return this.#redis.eval(script, 0, this.#p, ...args);
  }

  /** One pipeline for many jobs (a delivery's hundreds of inboxes), not a round trip each. */
  async insert(jobs: NewJob[]): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < jobs.length; i += CHUNK) {
      const chunk = jobs.slice(i, i + CHUNK);
      const pipe = this.#redis.pipeline();
      for (const j of chunk) {
        pipe.eval(ENQUEUE, 0, this.#p, j.id, j.name, j.payload, j.runAt, j.maxAttempts, j.dedupeKey ?? "", j.createdAt);
      }
      const res = (await pipe.exec()) ?? [];
      chunk.forEach((j, k) => {
        const [error, r] = res[k] ?? [new Error("no answer from Redis")];
        if (error) throw error;
        if (Number(r) === 1) ids.push(j.id);
      });
    }
    return ids;
  }

  async claim(
    workerId: string,
    names: string[],
    limit: number,
    now: number,
    lockedUntil: number,
  ): Promise<ClaimedJob[]> {
    if (names.length === 0 || limit <= 0) return [];
    // A random order of names, so a busy job name does not starve the others.
    const shuffled = [...names].sort(() => Math.random() - 0.5);
    const rows = (await this.#eval(CLAIM, workerId, limit, now, lockedUntil, ...shuffled)) as string[][];
    return rows.map(([id, name, payload, attempts, max]) => ({
      id: String(id),
      name: String(name),
      payload: String(payload),
      attempts: Number(attempts),
      maxAttempts: Number(max),
    }));
  }

  async extendLocks(workerId: string, ids: string[], lockedUntil: number): Promise<void> {
    if (ids.length > 0) await this.#eval(EXTEND, workerId, lockedUntil, ...ids);
  }

  async complete(workerId: string, ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += CHUNK) await this.#eval(COMPLETE, workerId, ...ids.slice(i, i + CHUNK));
  }

  async retry(workerId: string, id: string, runAt: number, error: string): Promise<void> {
    await this.#eval(RETRY, workerId, id, runAt, error, Date.now());
  }

  async kill(workerId: string, id: string, error: string): Promise<void> {
    await this.#eval(KILL, workerId, id, error, Date.now(), DEAD_KEPT);
  }

  async purgeDead(before: number): Promise<number> {
    let n = 0;
    for (const name of await this.#redis.smembers(`${this.#p}names`)) {
      const ids = await this.#redis.zrangebyscore(`${this.#p}dead:${name}`, "-inf", `(${before}`);
      if (ids.length === 0) continue;
      const pipe = this.#redis.pipeline();
      for (const id of ids) {
        pipe.del(`${this.#p}job:${id}`);
        pipe.zrem(`${this.#p}failing`, id);
        pipe.zrem(`${this.#p}dead:${name}`, id);
      }
      await pipe.exec();
      n += ids.length;
    }
    return n;
  }

  async #summaries(ids: string[]): Promise<JobSummary[]> {
    if (ids.length === 0) return [];
    const pipe = this.#redis.pipeline();
    for (const id of ids) pipe.hgetall(`${this.#p}job:${id}`);
    const res = (await pipe.exec()) ?? [];
    const out: JobSummary[] = [];
    ids.forEach((id, i) => {
      const h = res[i]?.[1] as Record<string, string> | undefined;
      if (!h?.name) return;
      out.push({
        id,
        name: h.name,
        state: h.state ?? "pending",
        runAt: new Date(Number(h.run_at)),
        attempts: Number(h.attempts),
        maxAttempts: Number(h.max),
        lastError: h.last_error || null,
        createdAt: new Date(Number(h.created_at)),
      });
    });
    return out;
  }

  async state(now: number, failingLimit: number): Promise<QueueState> {
    // One MULTI reads the pending and the running jobs together: read one after the other, a job
    // that enqueues others and ends between the two reads was seen in neither state, nor were
    // its new jobs (tests' settle() then returned early). A job name first used meanwhile
    // makes it read again.
    let names: string[] = [];
    let res: [Error | null, unknown][] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      names = (await this.#redis.smembers(`${this.#p}names`)).sort();
      const tx = this.#redis.multi();
      tx.smembers(`${this.#p}names`);
      tx.zrange(`${this.#p}running`, 0, -1);
      for (const n of names) {
        tx.zcount(`${this.#p}pending:${n}`, "-inf", now);
        tx.zcount(`${this.#p}pending:${n}`, `(${now}`, "+inf");
        tx.zcard(`${this.#p}dead:${n}`);
        tx.zrange(`${this.#p}pending:${n}`, 0, 0, "WITHSCORES");
      }
      res = ((await tx.exec()) ?? []) as [Error | null, unknown][];
      if (((res[0]?.[1] as string[] | undefined) ?? []).length === names.length) break;
    }
    const runningIds = (res[1]?.[1] as string[] | undefined) ?? [];
    res = res.slice(2);
    const counts: QueueState["counts"] = [];
    let oldest: { id: string; at: number } | undefined;
    names.forEach((name, i) => {
      const [waiting, delayed, dead] = [0, 1, 2].map((k) => Number(res[i * 4 + k]?.[1] ?? 0));
      const first = res[i * 4 + 3]?.[1] as string[] | undefined;
      if (first?.length === 2 && Number(first[1]) <= now && (!oldest || Number(first[1]) < oldest.at)) {
        oldest = { id: first[0] as string, at: Number(first[1]) };
      }
      counts.push({ name, state: "waiting", count: waiting as number });
      counts.push({ name, state: "delayed", count: delayed as number });
      counts.push({ name, state: "dead", count: dead as number });
    });
    // Running jobs are few (the workers' concurrency): count them by name directly. One that
    // ended since the snapshot (its record gone) still counts, under the name it had if known.
    const running = await this.#summaries(runningIds);
    const byName = new Map<string, number>();
    for (const r of running) byName.set(r.name, (byName.get(r.name) ?? 0) + 1);
    const ended = runningIds.length - running.length;
    if (ended > 0) byName.set("(ended just now)", ended);
    for (const [name, count] of byName) counts.push({ name, state: "running", count });
    const order: JobState[] = ["dead", "delayed", "running", "waiting"];
    const nonzero = counts
      .filter((c) => c.count > 0)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : order.indexOf(a.state) - order.indexOf(b.state)));
    const failingIds = await this.#redis.zrevrange(`${this.#p}failing`, 0, failingLimit - 1);
    const [oldestWaiting] = oldest ? await this.#summaries([oldest.id]) : [];
    return { counts: nonzero, oldestWaiting, failing: await this.#summaries(failingIds) };
  }
}

/** The queue of the scale-out profile: any number of worker processes share it. */
export class RedisJobQueue extends StoreJobQueue {
  constructor(redis: Redis, namespace: string, opts: QueueOptions) {
    super("redis", new RedisJobStore(redis, namespace), opts);
  }
}
