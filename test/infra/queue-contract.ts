import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import type { Kysely } from "kysely";
import type { AppContext } from "../../src/context.ts";
import type { DB } from "../../src/db/schema.ts";
import { transactionWithJobs } from "../../src/infra/queue/after-commit.ts";
import { type JobInfo, type JobQueue, PermanentJobError } from "../../src/infra/queue/interface.ts";
import type { QueueOptions, StoreJobQueue } from "../../src/infra/queue/runner.ts";

export type TestQueueOptions = Omit<QueueOptions, "context" | "ids">;

/** One backend under test: every queue it makes shares the same jobs, as processes would. */
export interface QueueBackend {
  /** A new queue instance (its own connection where the backend has them). */
  make(opts?: TestQueueOptions): Promise<StoreJobQueue>;
  /** A database for the transaction tests. */
  db: Kysely<DB>;
  /** Queues it made are stopped by the suite; this drops the backend's data. */
  close(): Promise<void>;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function waitFor(
  cond: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  what = "condition",
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const fast: TestQueueOptions = { pollIntervalMs: 20, backoffBaseMs: 20, backoffMaxMs: 200 };

/**
 * The behaviour every JobQueue implementation must have. `open` is called once per test, so
 * tests never see each other's jobs.
 */
export function queueContract(label: string, open: () => Promise<QueueBackend>): void {
  describe(`JobQueue contract: ${label}`, () => {
    let backend: QueueBackend;
    const queues: JobQueue[] = [];
    const make = async (opts: TestQueueOptions = {}) => {
      const q = await backend.make({ ...fast, ...opts });
      queues.push(q);
      return q;
    };
    before(async () => {
      backend = await open();
    });
    afterEach(async () => {
      await Promise.all(queues.splice(0).map((q) => q.stop(500)));
    });
    after(async () => {
      await backend.close();
    });

    it("runs an enqueued job with its payload, the context and the job's details", async () => {
      const q = await make();
      const seen: { payload: unknown; info: JobInfo; ctx: unknown }[] = [];
      q.register("t1.echo", async (ctx, payload, info) => {
        seen.push({ payload, info, ctx });
      });
      q.start({ concurrency: 2 });
      const payload = { a: 1, s: 'é ✓ "quoted"', list: [1, null, true], nested: { x: "y" } };
      const id = await q.enqueue("t1.echo", payload);
      assert.ok(id);
      await waitFor(() => seen.length === 1);
      assert.deepEqual(seen[0]?.payload, payload);
      assert.equal(seen[0]?.info.id, id);
      assert.equal(seen[0]?.info.name, "t1.echo");
      assert.equal(seen[0]?.info.attempt, 1);
      assert.equal(seen[0]?.info.maxAttempts, 10);
      assert.equal((seen[0]?.ctx as { marker?: string } | undefined)?.marker, "test-context");
      const ids = await q.enqueueMany([
        { name: "t1.echo", payload: 2 },
        { name: "t1.echo", payload: null },
        { name: "t1.echo" },
      ]);
      assert.equal(ids.length, 3);
      await waitFor(() => seen.length === 4);
      assert.deepEqual(
        seen
          .slice(1)
          .map((s) => s.payload)
          .sort(),
        [2, null, null].sort(),
      );
      // Finished jobs leave nothing behind.
      await waitFor(async () => (await q.state()).counts.filter((c) => c.name === "t1.echo").length === 0);
    });

    it("does not run a job before its runAt", async () => {
      const q = await make();
      let ranAt = 0;
      q.register("t2.later", async () => {
        ranAt = Date.now();
      });
      q.start();
      const runAt = new Date(Date.now() + 400);
      await q.enqueue("t2.later", {}, { runAt });
      const state = await q.state();
      assert.deepEqual(
        state.counts.filter((c) => c.name === "t2.later"),
        [{ name: "t2.later", state: "delayed", count: 1 }],
      );
      await sleep(200);
      assert.equal(ranAt, 0);
      await waitFor(() => ranAt > 0, 3000);
      assert.ok(ranAt >= runAt.getTime() - 5, "ran too early");
    });

    it("retries a failing job with growing delays, then keeps it dead with its last error", async () => {
      const q = await make({ backoffBaseMs: 40, backoffMaxMs: 1000 });
      const times: number[] = [];
      q.register("t3.fail", async (_ctx, _p, info) => {
        times.push(Date.now());
        throw new Error(`boom ${info.attempt}`);
      });
      q.start();
      const id = await q.enqueue("t3.fail", { x: 1 }, { attempts: 4 });
      await waitFor(async () => (await q.state()).counts.some((c) => c.name === "t3.fail" && c.state === "dead"), 5000);
      assert.equal(times.length, 4);
      const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
      // 40, 80, 160 ms, each with at most 25 % jitter.
      assert.ok((gaps[0] as number) >= 30, `first gap ${gaps[0]}`);
      assert.ok((gaps[2] as number) >= 120, `third gap ${gaps[2]}`);
      assert.ok((gaps[2] as number) > (gaps[0] as number));
      const state = await q.state();
      const failing = state.failing.find((f) => f.id === id);
      assert.ok(failing);
      assert.equal(failing.state, "dead");
      assert.equal(failing.attempts, 4);
      assert.match(failing.lastError ?? "", /boom 4/);
      await sleep(150);
      assert.equal(times.length, 4, "a dead job never runs again");
      assert.equal(await q.purgeDead(new Date(Date.now() - 60_000)), 0);
      assert.equal(await q.purgeDead(new Date(Date.now() + 1000)), 1);
      const after = await q.state();
      assert.ok(!after.failing.some((f) => f.id === id));
      assert.ok(!after.counts.some((c) => c.name === "t3.fail"));
    });

    it("succeeds on a retry, and a permanent error kills at once", async () => {
      const q = await make();
      let calls = 0;
      q.register("t4.flaky", async (_c, _p, info) => {
        calls++;
        if (info.attempt === 1) throw new Error("first time");
      });
      let permanent = 0;
      q.register("t4.permanent", async () => {
        permanent++;
        throw new PermanentJobError("gone");
      });
      q.start();
      await q.enqueue("t4.flaky");
      const pid = await q.enqueue("t4.permanent");
      await waitFor(() => calls === 2);
      await waitFor(async () => (await q.state()).failing.some((f) => f.id === pid && f.state === "dead"));
      assert.equal(permanent, 1);
      await waitFor(async () => !(await q.state()).counts.some((c) => c.name === "t4.flaky"));
    });

    it("drops a job whose dedupe key a pending job holds, and frees the key once it starts", async () => {
      const q = await make();
      const runs: unknown[] = [];
      let release: () => void = () => {};
      const gate = new Promise<void>((r) => {
        release = r;
      });
      q.register("t5.dedupe", async (_c, p) => {
        runs.push(p);
        if (p === 1) await gate;
      });
      const a = await q.enqueue("t5.dedupe", 1, { dedupeKey: "k" });
      const b = await q.enqueue("t5.dedupe", 2, { dedupeKey: "k" });
      const many = await q.enqueueMany([{ name: "t5.dedupe", payload: 3, options: { dedupeKey: "k" } }]);
      assert.ok(a);
      assert.equal(b, undefined);
      assert.deepEqual(many, []);
      q.start();
      await waitFor(() => runs.length === 1);
      // Running: a change made now must be handled again.
      const c = await q.enqueue("t5.dedupe", 4, { dedupeKey: "k" });
      assert.ok(c);
      release();
      await waitFor(() => runs.length === 2);
      await sleep(100);
      assert.deepEqual(runs, [1, 4]);
    });

    it("drops a failed job on retry when a newer job with its dedupe key waits", async () => {
      const q = await make();
      const runs: unknown[] = [];
      let release: () => void = () => {};
      const gate = new Promise<void>((r) => {
        release = r;
      });
      q.register("t5b.dedupe", async (_c, p) => {
        runs.push(p);
        if (p === 1) {
          await gate;
          throw new Error("fails after the newer job was enqueued");
        }
      });
      q.start({ concurrency: 1 });
      await q.enqueue("t5b.dedupe", 1, { dedupeKey: "k2" });
      await waitFor(() => runs.length === 1);
      await q.enqueue("t5b.dedupe", 2, { dedupeKey: "k2", runAt: new Date(Date.now() + 100) });
      release();
      await waitFor(() => runs.length === 2);
      await sleep(250);
      assert.deepEqual(runs, [1, 2]);
      assert.ok(!(await q.state()).counts.some((c) => c.name === "t5b.dedupe"));
    });

    it("runs again a job whose worker died holding it, once the lock expires", async () => {
      const q = await make();
      const runs: number[] = [];
      q.register("t6.orphan", async (_c, _p, info) => {
        runs.push(info.attempt);
      });
      await q.enqueue("t6.orphan", {});
      // A worker that takes the job and dies: nobody renews or releases its lock.
      const taken = await q.store.claim("dead-worker", ["t6.orphan"], 10, Date.now(), Date.now() + 300);
      assert.equal(taken.length, 1);
      q.start();
      await sleep(150);
      assert.deepEqual(runs, []);
      await waitFor(() => runs.length === 1, 3000);
      assert.deepEqual(runs, [2]);
    });

    it("keeps the lock of a long job alive while it runs", async () => {
      const a = await make({ lockMs: 400 });
      const b = await make({ lockMs: 400 });
      let runs = 0;
      const handler = async () => {
        runs++;
        await sleep(1300);
      };
      a.register("t7.long", handler);
      b.register("t7.long", handler);
      a.start();
      await a.enqueue("t7.long");
      await waitFor(() => runs === 1);
      b.start();
      await sleep(1400);
      assert.equal(runs, 1);
    });

    it("never runs more jobs at once than its concurrency", async () => {
      const q = await make();
      let now = 0;
      let max = 0;
      let done = 0;
      q.register("t8.busy", async () => {
        now++;
        max = Math.max(max, now);
        await sleep(15);
        now--;
        done++;
      });
      await q.enqueueMany(Array.from({ length: 24 }, (_, i) => ({ name: "t8.busy", payload: i })));
      q.start({ concurrency: 3 });
      await waitFor(() => done === 24, 10_000);
      assert.equal(max, 3);
    });

    it("does not look for a pool's jobs each time a job of another pool finishes", async () => {
      // A long poll: claims come only from enqueues, finished jobs and the first look.
      const q = await make({ pollIntervalMs: 60_000 });
      const claimsFor = new Map<string, number>();
      const claim = q.store.claim.bind(q.store);
      q.store.claim = (workerId, names, limit, now, lockedUntil) => {
        for (const n of names) claimsFor.set(n, (claimsFor.get(n) ?? 0) + 1);
        return claim(workerId, names, limit, now, lockedUntil);
      };
      let done = 0;
      q.register("t8b.other", async () => {});
      q.register(
        "t8b.pooled",
        async () => {
          await sleep(2);
          done++;
        },
        { concurrency: 2 },
      );
      q.start({ concurrency: 2 });
      await q.enqueueMany(Array.from({ length: 30 }, (_, i) => ({ name: "t8b.pooled", payload: i })));
      await waitFor(() => done === 30, 10_000, "30 pooled jobs");
      // The pooled jobs were claimed a few at a time; the other pool looked once at the start.
      assert.ok((claimsFor.get("t8b.pooled") ?? 0) >= 2);
      assert.equal(claimsFor.get("t8b.other"), 1);
      // Its own enqueue makes it look again, and its job runs (and is deleted, with no poll).
      await q.enqueue("t8b.other");
      await waitFor(() => claimsFor.get("t8b.other") === 2, 5000, "a claim for the other pool");
      const left = async () => (await q.state()).counts.filter((c) => c.name.startsWith("t8b.")).length;
      await waitFor(async () => (await left()) === 0, 5000, "no t8b job left");
    });

    it("shares jobs between two queue instances without running any twice", async () => {
      const a = await make();
      const b = await make();
      const count = new Map<number, number>();
      const by = { a: 0, b: 0 };
      const handler = (who: "a" | "b") => async (_c: AppContext, n: number) => {
        count.set(n, (count.get(n) ?? 0) + 1);
        by[who]++;
        await sleep(1);
      };
      a.register("t9.shared", handler("a"));
      b.register("t9.shared", handler("b"));
      a.start({ concurrency: 5 });
      b.start({ concurrency: 5 });
      const jobs = Array.from({ length: 200 }, (_, i) => ({ name: "t9.shared", payload: i }));
      await Promise.all([a.enqueueMany(jobs.slice(0, 100)), b.enqueueMany(jobs.slice(100))]);
      await waitFor(() => count.size === 200, 20_000, "200 jobs");
      await sleep(200);
      assert.equal([...count.values()].filter((c) => c !== 1).length, 0, "a job ran twice");
      assert.equal(by.a + by.b, 200);
    });

    it("takes only the jobs it has handlers for, even behind older ones it has none for", async () => {
      const q = await make();
      const ran: number[] = [];
      q.register("t9b.mine", async (_c, n: number) => {
        ran.push(n);
      });
      await q.enqueueMany([
        { name: "t9b.theirs", payload: 0 },
        { name: "t9b.theirs", payload: 1 },
        { name: "t9b.mine", payload: 2 },
      ]);
      q.start({ concurrency: 1 });
      await waitFor(() => ran.length === 1, 3000, "the job it has a handler for");
      await sleep(100);
      assert.deepEqual(ran, [2]);
      const theirs = (await q.state()).counts.find((c) => c.name === "t9b.theirs");
      assert.equal(theirs?.state, "waiting");
      assert.equal(theirs?.count, 2);
    });

    it("stop() waits for running jobs, within its bound", async () => {
      const q = await make();
      let finished = false;
      let started = false;
      q.register("t10.slow", async () => {
        started = true;
        await sleep(250);
        finished = true;
      });
      q.start();
      await q.enqueue("t10.slow");
      await waitFor(() => started);
      await q.stop();
      assert.equal(finished, true);
      await waitFor(async () => !(await q.state()).counts.some((c) => c.name === "t10.slow"));

      const h = await make();
      let hung = false;
      h.register("t10.hang", async () => {
        hung = true;
        await new Promise(() => {});
      });
      h.start();
      await h.enqueue("t10.hang");
      await waitFor(() => hung);
      const t0 = Date.now();
      await h.stop(100);
      assert.ok(Date.now() - t0 < 1000, "stop is bounded");
    });

    it("never runs jobs added in a transaction that rolled back", async () => {
      const q = await make();
      const runs: unknown[] = [];
      q.register("t11.tx", async (_c, p) => {
        runs.push(p);
      });
      q.start();
      const ctx = { db: backend.db, queue: q };
      await assert.rejects(
        transactionWithJobs(ctx, async (_trx, jobs) => {
          jobs.add("t11.tx", "rolled back");
          throw new Error("rollback");
        }),
      );
      await transactionWithJobs(ctx, async (_trx, jobs) => {
        jobs.add("t11.tx", "committed");
      });
      await waitFor(() => runs.length === 1);
      await sleep(100);
      assert.deepEqual(runs, ["committed"]);
    });

    it("reports counts by name and state and the oldest waiting job", async () => {
      const q = await make();
      await q.enqueue("t12.a", 1, { runAt: new Date(Date.now() - 5000) });
      await q.enqueue("t12.a", 2);
      await q.enqueue("t12.b", 3, { runAt: new Date(Date.now() + 60_000) });
      const state = await q.state();
      const mine = state.counts.filter((c) => c.name.startsWith("t12."));
      assert.deepEqual(mine, [
        { name: "t12.a", state: "waiting", count: 2 },
        { name: "t12.b", state: "delayed", count: 1 },
      ]);
      assert.equal(state.oldestWaiting?.name, "t12.a");
      assert.ok((state.oldestWaiting?.runAt.getTime() ?? 0) < Date.now() - 4000);
    });
  });
}
