import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql } from "kysely";
import { ChangeTracker } from "../../src/db/change-tracker.ts";

const tracked = () => {
  const tracker = new ChangeTracker(["accounts", "oauth_access_tokens"]);
  const db = new Kysely<any>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new SqliteIntrospector(k),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
    plugins: [tracker],
  });
  return { tracker, db };
};

describe("change tracker", () => {
  it("counts raw writes to tracked tables, and only those among plain writes", async () => {
    const { tracker, db } = tracked();
    const bumps = async (q: ReturnType<typeof sql>) => {
      const before = tracker.generation;
      await q.execute(db);
      return tracker.generation - before;
    };
    assert.equal(await bumps(sql`SELECT 1 FROM accounts`), 0);
    assert.equal(await bumps(sql`INSERT INTO feeds (account_id) SELECT id FROM accounts`), 0);
    assert.equal(await bumps(sql`UPDATE jobs SET state = 'running' RETURNING *`), 0);
    assert.equal(await bumps(sql`DELETE FROM feeds WHERE account_id = ${1}`), 0);
    assert.equal(await bumps(sql`UPDATE accounts SET statuses_count = statuses_count + 1`), 1);
    assert.equal(await bumps(sql`update "Accounts" set note = ''`), 1);
    assert.equal(await bumps(sql`INSERT INTO oauth_access_tokens(id) VALUES (1)`), 1);
    assert.equal(await bumps(sql`DELETE FROM accounts WHERE id = ${1}`), 1);
    // Anything whose target cannot be read plainly counts as a change.
    assert.equal(await bumps(sql`WITH x AS (SELECT 1) UPDATE feeds SET status_id = 1`), 1);
    assert.equal(await bumps(sql`INSERT INTO ${sql.ref("feeds")} VALUES (1)`), 1);
  });

  it("counts built writes by their tables", async () => {
    const { tracker, db } = tracked();
    const before = tracker.generation;
    await db.updateTable("feeds").set({ status_id: 1 }).execute();
    assert.equal(tracker.generation, before);
    await db.updateTable("accounts").set({ note: "" }).execute();
    assert.equal(tracker.generation, before + 1);
  });
});
