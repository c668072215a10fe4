import type { AppContext } from "./context.ts";
import { createScheduler, type Scheduler } from "./infra/scheduler/scheduler.ts";
import { registerJobHandlers, registerPeriodicTasks } from "./jobs/index.ts";

export interface BackgroundOptions {
  /** Run the job workers (the `worker` role; default true). */
  worker?: boolean;
  /** Run the periodic tasks (the `scheduler` role; default true). */
  scheduler?: boolean;
  /** Jobs run at once by this process (default 5). */
  concurrency?: number;
  /** How often the scheduler looks for due tasks (default 1 s). */
  schedulerTickMs?: number;
}

export interface Background {
  scheduler: Scheduler;
  /** Stops taking work and waits for what runs, at most `timeoutMs` (default 10 s). */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Starts the `worker` and `scheduler` roles in this process: job handlers on the context's
 * queue, and the periodic tasks. Stop it before closing the context.
 */
export async function startBackground(ctx: AppContext, opts: BackgroundOptions = {}): Promise<Background> {
  const worker = opts.worker ?? true;
  if (worker) {
    registerJobHandlers(ctx.queue, { deliveryConcurrency: ctx.config.deliveryConcurrency });
    ctx.queue.start({ concurrency: opts.concurrency });
  }
  const scheduler = await createScheduler(ctx, { tickMs: opts.schedulerTickMs });
  registerPeriodicTasks(scheduler);
  if (opts.scheduler ?? true) scheduler.start();
  return {
    scheduler,
    async stop(timeoutMs = 10_000) {
      await Promise.all([scheduler.stop(timeoutMs), worker ? ctx.queue.stop(timeoutMs) : Promise.resolve()]);
    },
  };
}
