import { type Kysely, sql } from "kysely";
import { loadMigrations } from "./migrations/index.ts";

/** How a database's recorded migrations compare with the ones this code base carries. */
export interface MigrationStatus {
  /** Whether the database has Gannet's migration table at all (false: a new, empty database). */
  initialized: boolean;
  applied: string[];
  /** Known here, not yet applied: the server applies them at its next start. */
  pending: string[];
  /** Applied, unknown here: the database was written by a newer Gannet. */
  unknown: string[];
}

/** The names of the migrations this code base carries, in order (`0001-foundation`, ...). */
export async function knownMigrations(): Promise<string[]> {
  return Object.keys(await loadMigrations()).sort();
}

/** Reads the migration table without changing anything (unlike `Database.migrate`). */
export async function migrationStatus(db: Kysely<unknown>): Promise<MigrationStatus> {
  const known = await knownMigrations();
  let applied: string[];
  try {
    const r = await sql<{ name: string }>`SELECT name FROM gannet_migrations ORDER BY name`.execute(db);
    applied = r.rows.map((row) => row.name);
  } catch (e) {
    if (/gannet_migrations/.test(e instanceof Error ? e.message : String(e))) {
      return { initialized: false, applied: [], pending: known, unknown: [] };
    }
    throw e;
  }
  const done = new Set(applied);
  const here = new Set(known);
  return {
    initialized: true,
    applied,
    pending: known.filter((n) => !done.has(n)),
    unknown: applied.filter((n) => !here.has(n)),
  };
}
