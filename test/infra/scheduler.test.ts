import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { Redis } from "ioredis";
import { SchedulerLeasesRepository } from "../../src/db/repositories/scheduler-leases.ts";
import { DatabaseLeaseStore } from "../../src/infra/scheduler/database.ts";
import type { LeaseStore } from "../../src/infra/scheduler/interface.ts";
import { RedisLeaseStore } from "../../src/infra/scheduler/redis.ts";
import { Scheduler } from "../../src/infra/scheduler/scheduler.ts";
import { sleep, waitFor } from "./queue-contract.ts";
import { openTestDatabase, testContext } from "./test-database.ts";

interface LeaseBackend {
  /** A lease store with its own connection, as another process would have. */
  make(): Promise<LeaseStore>;
  close(): Promise<void>;
}

function schedulerContract(label: string, open: () => Promise<LeaseBackend>): void {
  describe(`Scheduler: ${label}`, () => {
    const schedulers: Scheduler[] = [];
    let backend: LeaseBackend | undefined;
    const make = async (refreshMs?: number, store?: LeaseStore) => {
      backend ??= await open();
      const s = new Scheduler(store ?? (await backend.make()), { context: () => testContext, tickMs: 10, refreshMs });
      schedulers.push(s);
      return s;
    };
    after(async () => {
      await Promise.all(schedulers.map((s) => s.stop(500)));
      await backend?.close();
    });

    it("runs a task once per interval, with the context", async () => {
      const s = await make();
      const runs: number[] = [];
      s.every("once", 200, async (ctx) => {
        assert.equal((ctx as unknown as { marker: string }).marker, "test-context");
        runs.push(Date.now());
      });
      s.start();
      await sleep(1100);
      await s.stop();
      // Due at once, then every 200 ms: 6 runs in 1.1 s. A loaded machine delays ticks, and a late
      // run may be followed by a shorter gap, but never by a second run in the same interval.
      assert.ok(runs.length >= 4 && runs.length <= 7, `${runs.length} runs`);
      const gaps = runs.slice(1).map((t, i) => t - (runs[i] as number));
      assert.ok(Math.min(...gaps) >= 100, `gaps ${gaps}`);
    });

    it("runs a task in only one of two schedulers sharing the leases", async () => {
      const a = await make();
      const b = await make();
      const by = { a: 0, b: 0 };
      let running = 0;
      let overlap = false;
      const task = (who: "a" | "b") => async () => {
        running++;
        if (running > 1) overlap = true;
        by[who]++;
        await sleep(20);
        running--;
      };
      a.every("shared", 200, task("a"));
      b.every("shared", 200, task("b"));
      a.start();
      b.start();
      await sleep(1100);
      await Promise.all([a.stop(), b.stop()]);
      const total = by.a + by.b;
      assert.ok(total >= 5 && total <= 7, `${total} runs (${by.a} + ${by.b})`);
      assert.equal(overlap, false);
    });

    it("keeps running a task that throws, and takes over from a holder that died", async () => {
      const s = await make();
      let calls = 0;
      s.every("throws", 100, async () => {
        calls++;
        throw new Error("broken task");
      });
      s.start();
      await waitFor(() => calls >= 2, 2000);
      await s.stop();

      // A holder that took the task and died: its hold lasts 300 ms.
      const store = await backend?.make();
      assert.ok(store);
      await store.ensure("orphan");
      assert.equal(await store.acquire("orphan", "dead-process", 50, 300), true);
      const t = await make();
      let ranAt = 0;
      const t0 = Date.now();
      t.every("orphan", 50, async () => {
        ranAt ||= Date.now();
      });
      t.start();
      await waitFor(() => ranAt > 0, 2000);
      assert.ok(ranAt - t0 >= 250, `ran after ${ranAt - t0} ms`);
    });

    it("asks the store to take a task only when it is due, and sees another process's runSoon", async () => {
      backend ??= await open();
      const calls = { acquire: 0, takeableAt: 0 };
      const inner = await backend.make();
      const counted: LeaseStore = {
        ensure: (n) => inner.ensure(n),
        acquire: (...a) => {
          calls.acquire++;
          return inner.acquire(...a);
        },
        release: (n, h) => inner.release(n, h),
        makeDue: (n) => inner.makeDue(n),
        takeableAt: (n) => {
          calls.takeableAt++;
          return inner.takeableAt(n);
        },
      };
      const s = await make(50, counted);
      let runs = 0;
      s.every("hourly", 3600_000, async () => {
        runs++;
      });
      s.start();
      await waitFor(() => runs === 1, 2000);
      await sleep(300);
      // Tens of ticks, one take (the first run), the due times read again every 50 ms at most.
      assert.equal(calls.acquire, 1);
      assert.ok(calls.takeableAt >= 2, `${calls.takeableAt} reads`);
      assert.equal(runs, 1);

      // Another process makes it due (its store, not this process's runSoon): seen at a refresh.
      const other = await backend.make();
      await other.makeDue("hourly");
      await waitFor(() => runs === 2, 2000);
      // This process's runSoon is seen at the next tick, whatever the refresh period.
      const slow = await make(3600_000);
      let slowRuns = 0;
      slow.every("slow", 3600_000, async () => {
        slowRuns++;
      });
      slow.start();
      await waitFor(() => slowRuns === 1, 2000);
      await (await make()).runSoon("slow");
      await waitFor(() => slowRuns === 2, 2000);
      await Promise.all([s.stop(), slow.stop()]);
    });
  });
}

schedulerContract(process.env.DATABASE_URL ? "database leases (PostgreSQL)" : "database leases (SQLite)", async () => {
  const t = await openTestDatabase();
  return {
    async make() {
      const d = await t.connect();
      return new DatabaseLeaseStore(new SchedulerLeasesRepository(d.db));
    },
    close: () => t.close(),
  };
});

const redisUrl = process.env.REDIS_URL;
if (redisUrl) {
  schedulerContract("Redis leases", async () => {
    const namespace = `gannet-test-sched-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const clients: Redis[] = [];
    return {
      async make() {
        const r = new Redis(redisUrl);
        clients.push(r);
        return new RedisLeaseStore(r, namespace);
      },
      async close() {
        const r = clients[0];
        if (r) {
          const keys = await r.keys(`${namespace}:*`);
          if (keys.length > 0) await r.del(...keys);
        }
        for (const c of clients) c.disconnect();
      },
    };
  });
}
