import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { DialectName } from "./database.ts";

/**
 * The database holds migrations this code base does not have: a newer Gannet migrated it, and
 * this one would misread its tables. Start-up stops with this message before changing anything.
 */
export class SchemaTooNewError extends Error {
  override name = "SchemaTooNewError";
  readonly unknown: string[];

  constructor(unknown: string[]) {
    const which = unknown.length === 1 ? `migration ${unknown[0]}` : `migrations ${unknown.join(", ")}`;
    super(
      `the database was migrated by a newer Gannet (${which}); run that version or restore a backup from before the upgrade`,
    );
    this.unknown = unknown;
  }
}

/**
 * Applies pending migrations in name order, all in one transaction, recording each in
 * `gannet_migrations`; refuses (SchemaTooNewError) when the table names one this code lacks.
 * Kysely's own migrator is not used: it introspects every schema of the database to find its
 * table, which fails when another process drops a schema at that moment (test runs do, constantly). On PostgreSQL an advisory lock keyed by the schema serialises
 * processes starting together; SQLite has one connection per process and file locks.
 */
export async function runMigrations(
  db: Kysely<unknown>,
  dialect: DialectName,
  migrations: Record<string, Migration>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (dialect === "postgres") await sql`SELECT pg_advisory_xact_lock(hashtext(current_schema()))`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS gannet_migrations (name text PRIMARY KEY, applied_at text NOT NULL)`.execute(
      trx,
    );
    const done = await sql<{ name: string }>`SELECT name FROM gannet_migrations`.execute(trx);
    const applied = new Set(done.rows.map((r) => r.name));
    // An older code base on a newer schema: refuse before applying anything (the transaction
    // rolls back, and the table it may have created already existed).
    const unknown = [...applied].filter((name) => !Object.hasOwn(migrations, name)).sort();
    if (unknown.length > 0) throw new SchemaTooNewError(unknown);
    for (const name of Object.keys(migrations).sort()) {
      if (applied.has(name)) continue;
      try {
        await migrations[name].up(trx);
      } catch (e) {
        throw new Error(`migration ${name} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      await sql`INSERT INTO gannet_migrations (name, applied_at) VALUES (${name}, ${new Date().toISOString()})`.execute(
        trx,
      );
    }
  });
}
