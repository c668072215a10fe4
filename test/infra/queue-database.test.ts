import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JobsRepository } from "../../src/db/repositories/jobs.ts";
import { DatabaseJobQueue } from "../../src/infra/queue/database.ts";
import { IdGenerator } from "../../src/lib/ids.ts";
import { type QueueBackend, queueContract, sleep, waitFor } from "./queue-contract.ts";
import { openTestDatabase, testContext } from "./test-database.ts";

queueContract(
  process.env.DATABASE_URL ? "database (PostgreSQL)" : "database (SQLite)",
  async (): Promise<QueueBackend> => {
    const t = await openTestDatabase();
    return {
      db: t.database.db,
      async make(opts) {
        const d = await t.connect();
        return new DatabaseJobQueue(new JobsRepository(d.db, d.dialect), {
          ...opts,
          context: () => testContext,
          ids: new IdGenerator(),
        });
      },
      close: () => t.close(),
    };
  },
);

describe("DatabaseJobQueue.enqueueIn", () => {
  it("enqueues inside the caller's transaction: nothing runs if it rolls back, and runs after commit", async () => {
    const t = await openTestDatabase();
    const q = new DatabaseJobQueue(new JobsRepository(t.database.db, t.database.dialect), {
      context: () => testContext,
      ids: new IdGenerator(),
      pollIntervalMs: 20,
    });
    try {
      const runs: unknown[] = [];
      q.register("tx.job", async (_c, p) => {
        runs.push(p);
      });
      q.start();
      await assert.rejects(
        t.database.db.transaction().execute(async (trx) => {
          await q.enqueueIn(trx, "tx.job", "rolled back");
          await sleep(60);
          throw new Error("rollback");
        }),
      );
      await t.database.db.transaction().execute(async (trx) => {
        await q.enqueueManyIn(trx, [{ name: "tx.job", payload: "committed" }]);
        await sleep(60);
        assert.deepEqual(runs, [], "ran before the commit");
      });
      await waitFor(() => runs.length === 1);
      await sleep(100);
      assert.deepEqual(runs, ["committed"]);
    } finally {
      await q.stop();
      await t.close();
    }
  });
});
