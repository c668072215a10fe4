import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { createDatabase, type Database } from "../../src/db/database.ts";
import { runMigrations } from "../../src/db/migrate.ts";
import { loadMigrations } from "../../src/db/migrations/index.ts";
import { SearchRepository } from "../../src/db/repositories/search.ts";
import type { DB } from "../../src/db/schema.ts";
import { IdGenerator } from "../../src/lib/ids.ts";
import {
  parseFullTextQuery,
  prefixFts5,
  prefixTsQuery,
  toFts5,
  toTsQuery,
  wordsOf,
} from "../../src/services/search/query.ts";

/** Migration 0010 on a database that already holds accounts and statuses, then its triggers. */
describe("search migration on an existing database", () => {
  let dataDir: string;
  let database: Database;
  let db: Kysely<DB>;
  let repo: SearchRepository;
  const databaseUrl = process.env.DATABASE_URL;
  const pgSchema = databaseUrl ? `m_${process.pid}_${Math.random().toString(36).slice(2, 10)}` : undefined;
  const ids = new IdGenerator();
  const now = new Date().toISOString();
  const accountId = ids.next();
  const live = ids.next();
  const boost = ids.next();
  const tombstone = ids.next();

  const find = async (text: string) => {
    const parsed = parseFullTextQuery(text);
    const rows = await repo.statuses({
      match: { sqlite: toFts5(parsed), postgres: toTsQuery(parsed) },
      filters: [],
      reader: {},
      limit: 20,
      offset: 0,
    });
    return rows.map((r) => r.id);
  };
  const findAccounts = async (text: string) => {
    const words = wordsOf(text);
    const rows = await repo.accounts({
      match: { sqlite: prefixFts5(words), postgres: prefixTsQuery(words) },
      exactOnly: false,
      following: false,
      limit: 20,
      offset: 0,
    });
    return rows.map((r) => r.username);
  };
  const status = (id: string, text: string, extra: Record<string, unknown> = {}) => ({
    id,
    uri: `https://example.test/statuses/${id}`,
    account_id: accountId,
    text,
    content: `<p>${text}</p>`,
    visibility: "public",
    created_at: now,
    updated_at: now,
    ...extra,
  });

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "gannet-search-migration-"));
    database = createDatabase({ dataDir, databaseUrl, pgSchema });
    db = database.db;
    const raw = db as unknown as Kysely<unknown>;
    if (pgSchema) await sql`CREATE SCHEMA ${sql.id(pgSchema)}`.execute(raw);
    const all = await loadMigrations();
    const earlier = Object.fromEntries(Object.entries(all).filter(([name]) => name < "0010"));
    await runMigrations(raw, database.dialect, earlier);
    // A remote account needs no user row to be searchable.
    await db
      .insertInto("accounts")
      .values({
        id: accountId,
        username: "oldtimer",
        domain: "far.example",
        display_name: "Early Adopter",
        // Others find its posts only because it opted in (Mastodon's `indexable`).
        indexable: true,
        uri: "https://far.example/users/oldtimer",
        created_at: now,
        updated_at: now,
      })
      .execute();
    for (const row of [
      status(live, "written before search existed", { spoiler_text: "ancient" }),
      status(boost, "written before search existed", { reblog_of_id: live }),
      status(tombstone, "written and deleted before search existed", { deleted_at: now }),
    ]) {
      await db.insertInto("statuses").values(row).execute();
    }
    await runMigrations(raw, database.dialect, all);
    repo = new SearchRepository(db, database.dialect);
  });

  after(async () => {
    await database.close();
    if (databaseUrl && pgSchema) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${pgSchema} CASCADE`);
      await client.end();
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it("indexes the statuses and accounts that were already there", async () => {
    assert.deepEqual(await find("search existed"), [live]);
    assert.deepEqual(await find("ancient"), [live]);
    assert.deepEqual(await findAccounts("early"), ["oldtimer"]);
    assert.deepEqual(await findAccounts("old"), ["oldtimer"]);
    assert.deepEqual(await findAccounts("far"), ["oldtimer"]);
  });

  it("follows inserts, edits, tombstones and deletions", async () => {
    const fresh = ids.next();
    await db.insertInto("statuses").values(status(fresh, "brand new words")).execute();
    assert.deepEqual(await find("brand"), [fresh]);
    await db.updateTable("statuses").set({ text: "edited words" }).where("id", "=", fresh).execute();
    assert.deepEqual(await find("brand"), []);
    assert.deepEqual(await find("edited"), [fresh]);
    await db.updateTable("statuses").set({ spoiler_text: "warning" }).where("id", "=", fresh).execute();
    assert.deepEqual(await find("warning edited"), [fresh]);
    await db.updateTable("statuses").set({ deleted_at: now }).where("id", "=", fresh).execute();
    assert.deepEqual(await find("edited"), []);
    // A tombstone edited afterwards stays out; hard deletion of it leaves the index sound.
    await db.updateTable("statuses").set({ text: "ghost words" }).where("id", "=", fresh).execute();
    assert.deepEqual(await find("ghost"), []);
    await db.deleteFrom("statuses").where("id", "=", fresh).execute();
    await db.deleteFrom("statuses").where("id", "=", boost).execute();
    const other = ids.next();
    await db.insertInto("statuses").values(status(other, "edited words again")).execute();
    assert.deepEqual(await find("edited"), [other]);
    await db.deleteFrom("statuses").where("id", "=", other).execute();
    assert.deepEqual(await find("edited"), []);

    await db.updateTable("accounts").set({ display_name: "Late Bloomer" }).where("id", "=", accountId).execute();
    assert.deepEqual(await findAccounts("early"), []);
    assert.deepEqual(await findAccounts("bloom"), ["oldtimer"]);
    if (database.dialect === "sqlite") {
      // FTS5's own consistency check of the index structure.
      await sql`INSERT INTO statuses_fts(statuses_fts) VALUES ('integrity-check')`.execute(db);
      await sql`INSERT INTO accounts_fts(accounts_fts, rank) VALUES ('integrity-check', 1)`.execute(db);
    }
  });
});
