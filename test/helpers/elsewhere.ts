import { sql } from "kysely";
import pg from "pg";
import type { TestServer } from "./server.ts";

/**
 * Runs one statement on a database connection of its own, as another process (the `gannet`
 * command, another server process) would, with `?` parameters. Another process's SQLite commits
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
