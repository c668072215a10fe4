import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sql } from "kysely";
import { createDatabase } from "../../src/db/database.ts";

// The dialect builds row objects itself from node:sqlite's arrays (sqlite-dialect.ts readRow):
// they must be what node:sqlite's own row objects were.
describe("SQLite rows", () => {
  it("are null-prototype objects keyed by column, integers as numbers or decimal strings", async () => {
    const d = createDatabase({ dataDir: "/tmp", sqliteFile: ":memory:" });
    const { rows } = await sql<Record<string, unknown>>`
      SELECT 1 AS small, 9007199254740993 AS big, -9007199254740993 AS negative, 1.5 AS real,
             'text' AS text, NULL AS nil, x'ff00' AS blob`.execute(d.db);
    assert.equal(rows.length, 1);
    const row = rows[0];
    assert.equal(Object.getPrototypeOf(row), null);
    assert.deepEqual(Object.keys(row), ["small", "big", "negative", "real", "text", "nil", "blob"]);
    assert.equal(row.small, 1);
    assert.equal(row.big, "9007199254740993");
    assert.equal(row.negative, "-9007199254740993");
    assert.equal(row.real, 1.5);
    assert.equal(row.text, "text");
    assert.equal(row.nil, null);
    assert.deepEqual([...(row.blob as Uint8Array)], [255, 0]);
    await d.close();
  });

  it("keep the last of two columns of the same name, and come back from RETURNING", async () => {
    const d = createDatabase({ dataDir: "/tmp", sqliteFile: ":memory:" });
    const same = await sql<Record<string, unknown>>`SELECT 1 AS a, 2 AS a`.execute(d.db);
    assert.deepEqual({ ...same.rows[0] }, { a: 2 });
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)`.execute(d.db);
    const inserted = await sql<{ id: number; name: string }>`
      INSERT INTO t (name) VALUES ('x'), ('y') RETURNING id, name`.execute(d.db);
    assert.deepEqual(
      inserted.rows.map((r) => ({ ...r })),
      [
        { id: 1, name: "x" },
        { id: 2, name: "y" },
      ],
    );
    const updated = await sql`UPDATE t SET name = 'z'`.execute(d.db);
    assert.equal(updated.numAffectedRows, 2n);
    assert.deepEqual(updated.rows, []);
    const none = await sql`SELECT id FROM t WHERE id > 10`.execute(d.db);
    assert.deepEqual(none.rows, []);
    await d.close();
  });
});
