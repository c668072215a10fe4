import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sql } from "kysely";
import type { Database } from "../../src/db/database.ts";
import { createEventBus } from "../../src/infra/bus/create.ts";
import { busContract } from "./bus-contract.ts";
import { waitFor } from "./queue-contract.ts";
import { openTestDatabase } from "./test-database.ts";

const databaseUrl = process.env.DATABASE_URL;

if (databaseUrl) {
  busContract("PostgreSQL", async () => {
    const here = await openTestDatabase();
    const elsewhere = await openTestDatabase();
    const make = async (database: Database) => {
      const { bus, kind } = await createEventBus({ database, databaseUrl, redisNamespace: "unused" });
      if (kind !== "postgres") throw new Error(`expected the PostgreSQL bus, got ${kind}`);
      return bus;
    };
    return {
      shared: true,
      // Each bus with a pool of its own, as separate processes would have.
      make: async () => make(await here.connect()),
      makeElsewhere: async () => make(await elsewhere.connect()),
      async close() {
        await here.close();
        await elsewhere.close();
      },
    };
  });

  describe("PostgreSQL bus: a lost LISTEN connection", () => {
    it("opens a new one and listens to every channel again", async () => {
      const t = await openTestDatabase();
      const buses: Awaited<ReturnType<typeof createEventBus>>["bus"][] = [];
      try {
        const make = async () => {
          const { bus } = await createEventBus({ database: await t.connect(), databaseUrl, redisNamespace: "unused" });
          buses.push(bus);
          return bus;
        };
        const sub = await make();
        const pub = await make();
        const got: unknown[] = [];
        // What the change notices rely on (infra/bus/change-notices.ts): told of the loss, then of the recovery.
        const states: boolean[] = [];
        sub.onConnection((up) => states.push(up));
        await sub.subscribe("timeline:1", (m) => void got.push(m.payload)).ready;
        await pub.publish("timeline:1", "e", 1);
        await waitFor(() => got.length === 1);
        const schema = (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(t.database.db)).rows[0]?.s;
        const killed = await sql<{ n: string }>`
          SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity
          WHERE application_name = ${`gannet-bus ${schema}`.slice(0, 63)}`.execute(t.database.db);
        assert.equal(Number(killed.rows[0]?.n), 1);
        // Messages sent while it is down are lost (pub/sub has no replay); once listening again they flow.
        await waitFor(
          async () => {
            await pub.publish("timeline:1", "e", 2);
            return got.includes(2);
          },
          15_000,
          "a message after the reconnection",
        );
        await waitFor(() => states.length === 2, 15_000, "the recovery reported");
        assert.deepEqual(states, [false, true]);
      } finally {
        for (const b of buses) await b.close();
        await t.close();
      }
    });
  });
} else {
  describe("EventBus contract: PostgreSQL", () => {
    it("runs when DATABASE_URL is set", { skip: "DATABASE_URL is not set" }, () => {});
  });
}
