import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import pg from "pg";
import type { AppContext } from "../../src/context.ts";
import { createDatabase, type Database } from "../../src/db/database.ts";
import { JobsRepository } from "../../src/db/repositories/jobs.ts";
import { DatabaseJobQueue } from "../../src/infra/queue/database.ts";
import { IdGenerator } from "../../src/lib/ids.ts";
import { type QueueBackend, queueContract, sleep, waitFor } from "./queue-contract.ts";

export const testContext = { marker: "test-context" } as unknown as AppContext;

/**
 * A database for queue tests: a fresh SQLite file, or a fresh PostgreSQL schema when
 * DATABASE_URL is set. On PostgreSQL each queue gets its own pool, as separate processes would.
 */
export async function openTestDatabase(): Promise<{
  database: Database;
  connect(): Promise<Database>;
  close(): Promise<void>;
}> {
  const dataDir = await mkdtemp(join(tmpdir(), "gannet-queue-"));
  const databaseUrl = process.env.DATABASE_URL;
  const pgSchema = databaseUrl ? `q_${process.pid}_${Math.random().toString(36).slice(2, 10)}` : undefined;
  const open = () => createDatabase({ dataDir, databaseUrl, pgSchema });
  const database = open();
  await database.migrate();
  const extra: Database[] = [];
  return {
    database,
    async connect() {
      if (!databaseUrl) return database;
      const d = open();
      extra.push(d);
      return d;
    },
    async close() {
      for (const d of extra) await d.close();
      await database.close();
      if (databaseUrl && pgSchema) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${pgSchema} CASCADE`);
        await client.end();
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

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
