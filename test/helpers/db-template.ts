import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createDatabase, SQLITE_FILE } from "../../src/db/database.ts";

/**
 * A SQLite database migrated once per test run, which each test server on SQLite starts from a
 * copy of: running the 40-odd migrations for every server cost more than the rest of its start.
 * The global setup makes it and names it in this variable (inherited by every test process); the
 * server still runs `migrate()` on its copy (finding nothing to do), and a file run on its own,
 * without the global setup, migrates its database as before. The migrations themselves are run
 * for every test run (here), and tested on their own (test/startup, test/cli, test/unit).
 */
export const SQLITE_TEMPLATE_ENV = "GANNET_TEST_SQLITE_TEMPLATE";

/** Migrates a fresh SQLite database into a new temporary directory; returns the file. */
export async function makeSqliteTemplate(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "gannet-test-template-"));
  const database = createDatabase({ dataDir: dir });
  try {
    await database.migrate();
  } finally {
    // Closing the only connection checkpoints the WAL into the file, so the file alone is whole.
    await database.close();
  }
  return join(dir, SQLITE_FILE);
}

export async function removeSqliteTemplate(file: string): Promise<void> {
  await rm(dirname(file), { recursive: true, force: true });
}

/** Puts a copy of the run's template in `dataDir`, when there is one; false when not. */
export async function copySqliteTemplate(dataDir: string): Promise<boolean> {
  const template = process.env[SQLITE_TEMPLATE_ENV];
  if (!template) return false;
  try {
    await copyFile(template, join(dataDir, SQLITE_FILE));
    return true;
  } catch {
    // Gone (a run that ended while this file still ran): migrate from nothing instead.
    return false;
  }
}
