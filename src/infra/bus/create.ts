import type { Redis } from "ioredis";
import type { Database } from "../../db/database.ts";
import type { EventBus } from "./interface.ts";
import type { ListenRegistryOptions } from "./listen-registry.ts";
import { MemoryEventBus } from "./memory.ts";

export type EventBusKind = "redis" | "postgres" | "memory";

/**
 * Redis pub/sub when Redis is configured, else PostgreSQL LISTEN/NOTIFY when the database is
 * PostgreSQL, else in-process (SQLite: one process serves everything).
 */
export async function createEventBus(deps: {
  redis?: Redis;
  redisNamespace: string;
  database: Database;
  databaseUrl?: string;
  options?: ListenRegistryOptions;
}): Promise<{ bus: EventBus; kind: EventBusKind }> {
  if (deps.redis) {
    const { RedisEventBus } = await import("./redis.ts");
    return { bus: new RedisEventBus(deps.redis, deps.redisNamespace, deps.options), kind: "redis" };
  }
  const url = deps.databaseUrl;
  if (deps.database.dialect === "postgres" && url) {
    const [{ PostgresEventBus }, { BusRepository }, { default: pg }] = await Promise.all([
      import("./postgres.ts"),
      import("../../db/repositories/bus.ts"),
      import("pg"),
    ]);
    const repo = new BusRepository(deps.database.db);
    const schema = await repo.currentSchema();
    const connect = async () => {
      // Named after the schema, so an operator (or a test) can tell the server's listener apart.
      const client = new pg.Client({ connectionString: url, application_name: `gannet-bus ${schema}`.slice(0, 63) });
      await client.connect();
      return client;
    };
    return { bus: new PostgresEventBus({ ...deps.options, connect, repo, schema }), kind: "postgres" };
  }
  return { bus: new MemoryEventBus(), kind: "memory" };
}
