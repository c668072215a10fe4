import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createDatabase } from "../../src/db/database.ts";

describe("the SQLite connection", () => {
  it("serialises a transaction against queries from other requests", async () => {
    const d = createDatabase({ dataDir: "/tmp", sqliteFile: ":memory:" });
    await d.migrate();
    const order: string[] = [];
    const tx = d.db.transaction().execute(async (trx) => {
      await trx.selectFrom("user_roles").select("id").execute();
      order.push("tx-first");
      await new Promise((r) => setTimeout(r, 20));
      await trx.selectFrom("user_roles").select("id").execute();
      order.push("tx-second");
    });
    await new Promise((r) => setTimeout(r, 5));
    const outside = d.db
      .selectFrom("user_roles")
      .select("id")
      .execute()
      .then(() => order.push("outside"));
    await Promise.all([tx, outside]);
    assert.deepEqual(order, ["tx-first", "tx-second", "outside"]);
    await d.close();
  });
});
