import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { AppContext } from "../../src/context.ts";
import { createDatabase, type Database } from "../../src/db/database.ts";

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
