import { KvRepository } from "../../src/db/repositories/kv.ts";
import { DatabaseKvStore } from "../../src/infra/kv/fedify-kv.ts";
import { kvContract } from "./kv-contract.ts";
import { openTestDatabase } from "./test-database.ts";

// Gannet keeps Fedify's KvStore in its database on every profile (Redis, when set, carries the
// queue and the bus, not this store).
kvContract(process.env.DATABASE_URL ? "database (PostgreSQL)" : "database (SQLite)", async () => {
  const t = await openTestDatabase();
  const second = await t.connect();
  return {
    kv: new DatabaseKvStore(new KvRepository(t.database.db)),
    other: new DatabaseKvStore(new KvRepository(second.db)),
    close: () => t.close(),
  };
});
