import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Kysely } from "kysely";
import { createDatabase } from "../../src/db/database.ts";
import { runMigrations } from "../../src/db/migrate.ts";
import { loadMigrations } from "../../src/db/migrations/index.ts";

describe("migration 0032", () => {
  it("drops the home-feed rows of remote accounts and keeps local accounts' rows", async () => {
    const d = createDatabase({ dataDir: "/tmp", sqliteFile: ":memory:" });
    try {
      const all = await loadMigrations();
      const before = Object.fromEntries(Object.entries(all).filter(([name]) => name < "0032"));
      const db = d.db as unknown as Kysely<unknown>;
      await runMigrations(db, "sqlite", before);
      const now = new Date().toISOString();
      for (const [id, username, domain] of [
        ["1", "local", null],
        ["2", "remote", "remote.example"],
      ] as const) {
        await d.db
          .insertInto("accounts")
          .values({
            id,
            username,
            domain,
            uri: `https://${domain ?? "here.example"}/users/${username}`,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
      await d.db
        .insertInto("statuses")
        .values({
          id: "10",
          uri: "https://remote.example/s/10",
          account_id: "2",
          visibility: "public",
          local: false,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await d.db
        .insertInto("feeds")
        .values([
          { account_id: "1", status_id: "10" },
          { account_id: "2", status_id: "10" },
        ])
        .execute();
      await runMigrations(db, "sqlite", all);
      const rows = await d.db.selectFrom("feeds").select(["account_id", "status_id"]).execute();
      assert.deepEqual(
        rows.map((r) => [String(r.account_id), String(r.status_id)]),
        [["1", "10"]],
      );
    } finally {
      await d.close();
    }
  });
});
