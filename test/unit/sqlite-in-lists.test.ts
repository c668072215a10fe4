import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sql } from "kysely";
import { createDatabase } from "../../src/db/database.ts";
import { paddedLength, padInLists, padParameters } from "../../src/db/sqlite-in-lists.ts";

const list = (n: number) => Array.from({ length: n }, () => "?").join(", ");

// SQLite keeps a prepared statement per SQL text, some 13 KB of malloc'ed memory each (more with
// long lists): lists padded to a few lengths keep a handful per query (docs/performance.md, soak).
describe("IN lists on SQLite", () => {
  it("are padded to a few lengths: as they are up to 4, multiples of 8 up to 128, powers of two up to 1,024", () => {
    assert.deepEqual(
      [1, 4, 5, 8, 9, 40, 127, 129, 1000, 1025].map(paddedLength),
      [1, 4, 8, 8, 16, 40, 128, 256, 1024, 1025],
    );
    const lengths = new Set(
      Array.from({ length: 80 }, (_, i) => padInLists(`select 1 where x in (${list(i + 1)})`).sql),
    );
    assert.equal(lengths.size, 14); // 1, 2, 3, 4, 8, 16, ... 80
  });

  it("repeat each list's last parameter, the parameters around them unmoved", () => {
    const text = `select * from t where a = ? and b in (${list(5)}) and c not in (${list(2)}) and d IN (${list(6)}) limit ?`;
    const padded = padInLists(text);
    assert.equal(
      padded.sql,
      `select * from t where a = ? and b in (${list(8)}) and c not in (${list(2)}) and d in (${list(8)}) limit ?`,
    );
    assert.deepEqual(padded.pads, [
      [5, 3],
      [13, 2],
    ]);
    const params = ["a", "b1", "b2", "b3", "b4", "b5", "c1", "c2", "d1", "d2", "d3", "d4", "d5", "d6", 10];
    assert.deepEqual(padParameters(params, padded.pads), [
      "a",
      ...["b1", "b2", "b3", "b4", "b5", "b5", "b5", "b5"],
      "c1",
      "c2",
      ...["d1", "d2", "d3", "d4", "d5", "d6", "d6", "d6"],
      10,
    ]);
  });

  it("leave SQL alone when a question mark is not a parameter, or parameters are numbered", () => {
    for (const text of [
      `select '?' as q, x from t where x in (${list(5)})`,
      `select x as "what?" from t where x in (${list(5)})`,
      `select x from t where x in (?1, ?2, ?3, ?4, ?5)`,
      "select x from t where x in (select y from u)",
    ]) {
      assert.deepEqual(padInLists(text), { sql: text, pads: [] });
    }
  });

  it("answer as unpadded lists would, IN and NOT IN, reads and writes", async () => {
    const d = createDatabase({ dataDir: "/tmp", sqliteFile: ":memory:" });
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)`.execute(d.db);
    for (let i = 1; i <= 40; i++) await sql`INSERT INTO t (id, name) VALUES (${i}, ${`n${i}`})`.execute(d.db);
    for (let n = 1; n <= 40; n++) {
      const ids = Array.from({ length: n }, (_, i) => 40 - 2 * i);
      const inList = await sql<{ id: number }>`SELECT id FROM t WHERE id IN (${sql.join(ids)})`.execute(d.db);
      assert.deepEqual(
        inList.rows.map((r) => r.id).sort((a, b) => a - b),
        ids.filter((i) => i >= 1).sort((a, b) => a - b),
        `in, ${n} ids`,
      );
      const notIn = await sql<{ n: number }>`SELECT count(*) AS n FROM t WHERE id NOT IN (${sql.join(ids)})`.execute(
        d.db,
      );
      assert.equal(notIn.rows[0]?.n, 40 - ids.filter((i) => i >= 1).length, `not in, ${n} ids`);
      // A write with a padded list deletes what the list names, no more.
      const del =
        await sql`DELETE FROM t WHERE id IN (${sql.join([1000 + n, 2000 + n, 3000 + n, 4000 + n, 5000 + n])})`.execute(
          d.db,
        );
      assert.equal(del.numAffectedRows, 0n);
    }
    await d.close();
  });
});
