import { describe, it } from "node:test";
import { Redis } from "ioredis";
import { RedisJobQueue } from "../../src/infra/queue/redis.ts";
import { IdGenerator } from "../../src/lib/ids.ts";
import { type QueueBackend, queueContract } from "./queue-contract.ts";
import { openTestDatabase, testContext } from "./test-database.ts";

const redisUrl = process.env.REDIS_URL;

if (redisUrl) {
  queueContract("Redis", async (): Promise<QueueBackend> => {
    const t = await openTestDatabase();
    const namespace = `gannet-test-q-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const clients: Redis[] = [];
    return {
      db: t.database.db,
      async make(opts) {
        // One client per queue, as separate processes would have.
        const r = new Redis(redisUrl);
        clients.push(r);
        return new RedisJobQueue(r, namespace, { ...opts, context: () => testContext, ids: new IdGenerator() });
      },
      async close() {
        const r = clients[0];
        if (r) {
          const keys = await r.keys(`${namespace}:*`);
          if (keys.length > 0) await r.del(...keys);
        }
        for (const c of clients) c.disconnect();
        await t.close();
      },
    };
  });
} else {
  describe("JobQueue contract: Redis", () => {
    it("runs when REDIS_URL is set", { skip: "REDIS_URL is not set" }, () => {});
  });
}
