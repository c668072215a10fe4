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
import type { DB } from "../../src/db/schema.ts";

/** Migration 0033 on a database holding tags that differ only in width, case or accents. */
describe("hashtag migration: duplicate tags merged under Mastodon's normalised name", () => {
  let dataDir: string;
  let database: Database;
  let db: Kysely<DB>;
  const databaseUrl = process.env.DATABASE_URL;
  const pgSchema = databaseUrl ? `h_${process.pid}_${Math.random().toString(36).slice(2, 10)}` : undefined;
  const now = new Date().toISOString();

  // Names as the old code stored them: lower-cased, nothing else.
  const tags: [string, string, string][] = [
    ["101", "café", "Café"],
    ["102", "cafe\u0301", "cafe\u0301"],
    ["103", "ｃａｆｅ", "ｃａｆｅ"],
    ["104", "cafe", "cafe"],
    ["105", "ünïcode", "Ünïcode"],
    ["106", "ｕｎｉｃｏｄｅ", "ＵＮＩＣＯＤＥ"],
    ["107", "dog", "Dog"],
    ["108", "straße", "Straße"],
  ];

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "gannet-hashtag-migration-"));
    database = createDatabase({ dataDir, databaseUrl, pgSchema });
    db = database.db;
    const raw = db as unknown as Kysely<unknown>;
    if (pgSchema) await sql`CREATE SCHEMA ${sql.id(pgSchema)}`.execute(raw);
    const all = await loadMigrations();
    const earlier = Object.fromEntries(Object.entries(all).filter(([name]) => name < "0033"));
    await runMigrations(raw, database.dialect, earlier);
    for (const id of ["1", "2"]) {
      await db
        .insertInto("accounts")
        .values({
          id,
          username: `u${id}`,
          domain: "far.example",
          uri: `https://far.example/u/${id}`,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    for (const id of ["11", "12", "13", "14"]) {
      await db
        .insertInto("statuses")
        .values({
          id,
          uri: `https://far.example/s/${id}`,
          account_id: "1",
          visibility: "public",
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    for (const [id, name, display_name] of tags) {
      await db.insertInto("tags").values({ id, name, display_name, created_at: now, updated_at: now }).execute();
    }
    const links: [string, string][] = [
      ["11", "101"],
      ["11", "102"],
      ["12", "103"],
      ["13", "104"],
      ["14", "105"],
      ["14", "106"],
      ["14", "107"],
    ];
    await db
      .insertInto("statuses_tags")
      .values(links.map(([status_id, tag_id]) => ({ status_id, tag_id })))
      .execute();
    const follows: [string, string, string][] = [
      ["201", "1", "101"],
      ["202", "1", "104"],
      ["203", "2", "102"],
      ["204", "2", "106"],
    ];
    await db
      .insertInto("tag_follows")
      .values(follows.map(([id, account_id, tag_id]) => ({ id, account_id, tag_id, created_at: now })))
      .execute();
    await db
      .insertInto("featured_tags")
      .values([
        { id: "301", account_id: "1", tag_id: "103", created_at: now, updated_at: now },
        { id: "302", account_id: "1", tag_id: "104", created_at: now, updated_at: now },
        { id: "303", account_id: "2", tag_id: "106", created_at: now, updated_at: now },
      ])
      .execute();
    await runMigrations(raw, database.dialect, all);
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

  it("keeps one tag per normalised name: the one already so named, else the first, renamed", async () => {
    const rows = await db.selectFrom("tags").select(["id", "name", "display_name"]).orderBy("id").execute();
    assert.deepEqual(
      rows.map((r) => [String(r.id), r.name, r.display_name]),
      [
        ["104", "cafe", "cafe"],
        ["105", "unicode", "Ünïcode"],
        ["107", "dog", "Dog"],
        ["108", "straße", "Straße"],
      ],
    );
  });

  it("moves posts, follows and featurings to the kept tag, once each", async () => {
    const pairs = async (table: "statuses_tags" | "tag_follows" | "featured_tags", owner: string) =>
      (await sql<Record<string, string | number>>`SELECT * FROM ${sql.table(table)}`.execute(db)).rows
        .map((r) => `${r[owner]}:${r.tag_id}`)
        .sort();
    assert.deepEqual(await pairs("statuses_tags", "status_id"), ["11:104", "12:104", "13:104", "14:105", "14:107"]);
    assert.deepEqual(await pairs("tag_follows", "account_id"), ["1:104", "2:104", "2:105"]);
    assert.deepEqual(await pairs("featured_tags", "account_id"), ["1:104", "2:105"]);
  });
});
