import { readdirSync } from "node:fs";
import type { Migration } from "kysely/migration";

/**
 * Every migration in this folder, by file name (`0001-foundation.ts`, ...), in order. A new
 * migration is a new file here, never an edit of an old one; no list needs updating. Each file
 * is imported when its migration runs, not before: a start-up on a migrated database only reads
 * the names (47 modules fewer to load).
 */
export async function loadMigrations(): Promise<Record<string, Migration>> {
  const dir = import.meta.dirname;
  const names = readdirSync(dir)
    .filter((f) => /^\d{4}-[a-z0-9-]+\.(ts|js)$/.test(f))
    .sort();
  const out: Record<string, Migration> = {};
  for (const file of names) {
    out[file.replace(/\.(ts|js)$/, "")] = {
      async up(db) {
        await ((await import(`./${file}`)) as Migration).up(db);
      },
    };
  }
  return out;
}
