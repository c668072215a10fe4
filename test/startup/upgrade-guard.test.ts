import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createInstance, type Instance, MAIN, queryInstance, runNode, startServer } from "../cli/harness.ts";

const FUTURE = "9999-from-a-newer-gannet";

const query = queryInstance;

/** What the guard must leave as it was: the recorded migrations, the tables and their columns. */
async function schemaState(inst: Instance): Promise<string> {
  const migrations = await query(inst, "SELECT name, applied_at FROM gannet_migrations ORDER BY name");
  const columns = inst.env.DATABASE_URL
    ? await query(
        inst,
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY 1, 2",
      )
    : await query(
        inst,
        "SELECT m.name AS table_name, p.name AS column_name FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY 1, 2",
      );
  return JSON.stringify({ migrations, columns });
}

/** The SQLite files' bytes (the database and its write-ahead log). */
function sqliteBytes(inst: Instance): string {
  const hash = createHash("sha256");
  for (const f of ["gannet.sqlite3", "gannet.sqlite3-wal"]) {
    const p = join(inst.dataDir, f);
    if (existsSync(p)) hash.update(readFileSync(p));
  }
  return hash.digest("hex");
}

describe("start-up on a database migrated by a newer Gannet", () => {
  let inst: Instance;
  before(async () => {
    inst = await createInstance();
    // A first start migrates the fresh database.
    const server = await startServer({ env: inst.env, cwd: inst.dir });
    assert.equal(await server.stop(), 0);
  });
  after(() => inst.cleanup());

  it("refuses with a clear message and a non-zero status, changing nothing", async () => {
    await query(inst, "INSERT INTO gannet_migrations (name, applied_at) VALUES ($1, $2)", [
      FUTURE,
      new Date().toISOString(),
    ]);
    const state = await schemaState(inst);
    const bytes = inst.env.DATABASE_URL ? undefined : sqliteBytes(inst);

    const r = await runNode(MAIN, [], { env: inst.env, cwd: inst.dir });
    assert.equal(r.code, 3, r.stderr);
    assert.equal(
      r.stderr,
      `gannet: the database was migrated by a newer Gannet (migration ${FUTURE}); run that version or restore a backup from before the upgrade\n`,
    );
    assert.doesNotMatch(r.stdout, /listening/);

    assert.equal(await schemaState(inst), state);
    if (bytes !== undefined) assert.equal(sqliteBytes(inst), bytes);
  });

  it("starts again once the database is one this code knows (as after restoring a backup)", async () => {
    await query(inst, "DELETE FROM gannet_migrations WHERE name = $1", [FUTURE]);
    const server = await startServer({ env: inst.env, cwd: inst.dir });
    assert.equal(await server.stop(), 0);
  });
});
