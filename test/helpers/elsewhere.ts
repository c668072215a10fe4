import { sql } from "kysely";
import pg from "pg";
import { CHANGE_GROUPS } from "../../src/db/change-notices.ts";
import { CHANGES_CHANNEL } from "../../src/infra/bus/change-notices.ts";
import type { TestServer } from "./server.ts";

/**
 * On PostgreSQL, what another Gannet process does after its commit: a change notice on the bus
 * (db/change-notices.ts), here naming every group; resolves once the server counted it. (A write
 * that no process announces, an operator's SQL, is seen after DATABASE_CACHE_MAX_AGE.)
 */
export async function announceElsewhere(s: TestServer): Promise<void> {
  const notices = s.ctx.database.changes;
  if (notices === undefined) return;
  const before = notices.external("cached");
  await s.ctx.bus.publish(CHANGES_CHANNEL, "changed", { o: "elsewhere", g: [...CHANGE_GROUPS] });
  for (let i = 0; i < 500 && before !== undefined && notices.external("cached") === before; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Runs one statement on a database connection of its own, as another process (the `gannet`
 * command, another server process) would, with `?` parameters (on PostgreSQL followed by the
 * change notice such a process sends). Another process's SQLite commits
 * are noticed within 2 ms (the change stamp reads SQLite's data_version at most that often): the
 * wait covers that.
 */
export async function runElsewhere(s: TestServer, text: string, params: unknown[]): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(s.ctx.db);
    const client = new pg.Client({ connectionString: url, options: `-c search_path=${rows[0]?.schema}` });
    await client.connect();
    try {
      let i = 0;
      await client.query(
        text.replace(/\?/g, () => `$${++i}`),
        params,
      );
    } finally {
      await client.end();
    }
    await announceElsewhere(s);
  } else {
    const { DatabaseSync } = await import("node:sqlite");
    const other = new DatabaseSync(`${s.ctx.config.dataDir}/gannet.sqlite3`);
    try {
      other.exec("PRAGMA busy_timeout = 5000");
      other.prepare(text).run(...(params as (string | number | null)[]));
    } finally {
      other.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
