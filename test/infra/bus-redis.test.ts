import { describe, it } from "node:test";
import { Redis } from "ioredis";
import { RedisEventBus } from "../../src/infra/bus/redis.ts";
import { busContract } from "./bus-contract.ts";

const redisUrl = process.env.REDIS_URL;

if (redisUrl) {
  busContract("Redis", async () => {
    const namespace = `gannet-test-bus-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const clients: Redis[] = [];
    const make = async (ns: string) => {
      // One command connection per bus, as separate processes would have.
      const r = new Redis(redisUrl);
      clients.push(r);
      return new RedisEventBus(r, ns);
    };
    return {
      shared: true,
      make: () => make(namespace),
      makeElsewhere: () => make(`${namespace}-elsewhere`),
      async close() {
        const r = clients[0];
        if (r) {
          const keys = await r.keys(`${namespace}*`);
          if (keys.length > 0) await r.del(...keys);
        }
        for (const c of clients) c.disconnect();
      },
    };
  });
} else {
  describe("EventBus contract: Redis", () => {
    it("runs when REDIS_URL is set", { skip: "REDIS_URL is not set" }, () => {});
  });
}
