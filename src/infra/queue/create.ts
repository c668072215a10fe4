import type { Redis } from "ioredis";
import type { AppContext } from "../../context.ts";
import type { JobsRepository } from "../../db/repositories/jobs.ts";
import type { IdGenerator } from "../../lib/ids.ts";
import { DatabaseJobQueue } from "./database.ts";
import type { JobQueue } from "./interface.ts";

export interface JobQueueSettings {
  /** How often idle workers look for work (default 1 s). */
  pollIntervalMs?: number;
  /** First retry delay (default 30 s). */
  backoffBaseMs?: number;
}

/** Redis when it is configured (the scale-out profile), else the database's `jobs` table. */
export async function createJobQueue(deps: {
  context: () => AppContext;
  ids: IdGenerator;
  jobs: JobsRepository;
  redis?: Redis;
  redisNamespace: string;
  settings?: JobQueueSettings;
}): Promise<JobQueue> {
  const opts = { context: deps.context, ids: deps.ids, ...deps.settings };
  if (deps.redis) {
    // ioredis and the Redis queue load only in the scale-out profile.
    const { RedisJobQueue } = await import("./redis.ts");
    return new RedisJobQueue(deps.redis, deps.redisNamespace, opts);
  }
  return new DatabaseJobQueue(deps.jobs, opts);
}
