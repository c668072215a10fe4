import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sql } from "kysely";
import { createDatabase } from "../../src/db/database.ts";
import { selectShaped, writeShaped } from "../../src/db/repositories/query-shapes.ts";

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

// selectShaped runs a read it compiled before straight on SQLite's connection when nobody holds
// it (query-shapes.ts, sqlite-dialect.ts readNow), and through Kysely otherwise.
describe("known reads on SQLite", () => {
  async function withTable() {
    const d = createDatabase({ dataDir: "/tmp", sqliteFile: ":memory:" });
    await d.migrate();
    await sql`INSERT INTO kv_store (key, value, expires_at) VALUES ('a', '1', NULL), ('b', '2', '2030-01-01')`.execute(
      d.db,
    );
    const read = (key: string) =>
      selectShaped(d.db, "test.kv", [key], () =>
        d.db.selectFrom("kv_store").select(["key", "value", "expires_at"]).where("key", "=", key),
      );
    return { d, read };
  }

  it("answer at once when the connection is free, the rows Kysely gives", async () => {
    const { d, read } = await withTable();
    const viaKysely = await read("a"); // the first time: compiled and run by Kysely
    let settled = false;
    const pending = read("b").then((rows) => {
      settled = true;
      return rows;
    });
    await Promise.resolve();
    // Run without waiting for the connection: done within a turn of microtasks.
    await Promise.resolve();
    assert.equal(settled, true);
    assert.deepEqual(
      (await pending).map((r) => ({ ...r })),
      [{ key: "b", value: "2", expires_at: "2030-01-01" }],
    );
    assert.deepEqual(
      (await read("a")).map((r) => ({ ...r })),
      viaKysely.map((r) => ({ ...r })),
    );
    assert.equal(Object.getPrototypeOf((await read("a"))[0]), null);
    await d.close();
  });

  it("wait for a transaction that holds the connection, and then see what it committed", async () => {
    const { d, read } = await withTable();
    await read("a");
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const trx = d.db.transaction().execute(async (t) => {
      await sql`UPDATE kv_store SET value = '3' WHERE key = 'a'`.execute(t);
      await held;
    });
    await new Promise((r) => setTimeout(r, 5));
    let settled = false;
    const during = read("a").then((rows) => {
      settled = true;
      return rows;
    });
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(settled, false, "a read waits while a transaction holds the connection");
    release();
    await trx;
    assert.deepEqual(
      (await during).map((r) => r.value),
      ["3"],
    );
    await d.close();
  });
});

// writeShaped compiles a write once per shape; reused, it still passes Kysely's plugins.
describe("known writes", () => {
  it("are seen by the change trackers each time, and run in the transaction they are given", async () => {
    const d = createDatabase({ dataDir: "/tmp", sqliteFile: ":memory:" });
    await d.migrate();
    const write = (db: typeof d.db, key: string, value: string) =>
      writeShaped(db, "test.kv.insert", [key, value], () =>
        db
          .insertInto("kv_store")
          .values({ key, value })
          .onConflict((oc) => oc.column("key").doNothing()),
      );
    // domain_allows is tracked (the domain policy cache's stamp).
    const stamp = () => d.domainPolicyStamp() ?? 0;
    const trackedWrite = (db: typeof d.db, id: string, domain: string) =>
      writeShaped(db, "test.allow.insert", [id, domain, "2026-01-01", "2026-01-01"], () =>
        db.insertInto("domain_allows").values({ id, domain, created_at: "2026-01-01", updated_at: "2026-01-01" }),
      );
    await write(d.db, "a", "1");
    await write(d.db, "b", "2");
    const before = stamp();
    await trackedWrite(d.db, "1", "one.example");
    const once = stamp();
    await trackedWrite(d.db, "2", "two.example"); // reused: compiled the first time only
    assert.ok(once > before, "the first write was seen");
    assert.ok(stamp() > once, "the reused write was seen too");
    // In a transaction that fails, the reused write is rolled back with it.
    await assert.rejects(
      d.db.transaction().execute(async (trx) => {
        await write(trx, "c", "3");
        throw new Error("abort");
      }),
    );
    const rows = await d.db.selectFrom("kv_store").select(["key", "value"]).orderBy("key").execute();
    assert.deepEqual(
      rows.map((r) => ({ ...r })),
      [
        { key: "a", value: "1" },
        { key: "b", value: "2" },
      ],
    );
    await d.close();
  });
});
