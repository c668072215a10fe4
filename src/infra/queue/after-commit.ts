import type { Transaction } from "kysely";
import type { AppContext } from "../../context.ts";
import type { DB } from "../../db/schema.ts";
import type { EnqueueOptions, JobToEnqueue } from "./interface.ts";

export interface JobBatch {
  add(name: string, payload?: unknown, options?: EnqueueOptions): void;
}

/**
 * Runs `fn` in one transaction and enqueues the jobs it added once the transaction has
 * committed: if it rolls back (throws), none are enqueued. Works with every queue.
 */
export async function transactionWithJobs<T>(
  ctx: Pick<AppContext, "db" | "queue">,
  fn: (trx: Transaction<DB>, jobs: JobBatch) => Promise<T>,
): Promise<T> {
  const jobs: JobToEnqueue[] = [];
  const result = await ctx.db.transaction().execute((trx) =>
    fn(trx, {
      add(name, payload, options) {
        jobs.push({ name, payload, options });
      },
    }),
  );
  await ctx.queue.enqueueMany(jobs);
  return result;
}
