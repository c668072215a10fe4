import assert from "node:assert/strict";
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

  describe("EventBus: Redis subscriber connection", () => {
    it("subscriptions made while the bus first connects still get messages (ioredis's ready check must not drop them)", async () => {
      // A subscription sent between the subscriber connection's connect and ready once put it in
      // subscriber mode ahead of ioredis's ready check (INFO), which then failed: the connection
      // came back subscribed to nothing. Subscriptions spread over the first milliseconds of a
      // few fresh buses cover that window.
      const namespace = `gannet-test-bus-ready-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
      const clients: Redis[] = [];
      const buses: RedisEventBus[] = [];
      try {
        for (let b = 0; b < 4; b++) {
          const r = new Redis(redisUrl);
          clients.push(r);
          const bus = new RedisEventBus(r, namespace);
          buses.push(bus);
          const received = new Set<string>();
          const readies: Promise<void>[] = [];
          for (let i = 0; i < 15; i++) {
            const channel = `ready-${b}-${i}`;
            readies.push(bus.subscribe(channel, () => received.add(channel)).ready);
            await new Promise((r) => setTimeout(r, 1));
          }
          await Promise.all(readies);
          for (let i = 0; i < 15; i++) await bus.publish(`ready-${b}-${i}`, "ping", i);
          for (let t = 0; t < 300 && received.size < 15; t++) await new Promise((r) => setTimeout(r, 10));
          assert.equal(received.size, 15, `bus ${b}: ${received.size} of 15 channels got their message`);
        }
      } finally {
        for (const bus of buses) await bus.close();
        for (const c of clients) c.disconnect();
      }
    });
  });
} else {
  describe("EventBus contract: Redis", () => {
    it("runs when REDIS_URL is set", { skip: "REDIS_URL is not set" }, () => {});
  });
}
