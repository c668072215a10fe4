import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import { runInBackground } from "../../lib/background.ts";
import { newWorkerId } from "../queue/runner.ts";
import type { LeaseStore } from "./interface.ts";

const logger = getLogger(["gannet", "scheduler"]);

export type PeriodicTask = (ctx: AppContext) => Promise<void>;

interface Task {
  name: string;
  intervalMs: number;
  holdMs: number;
  fn: PeriodicTask;
  running?: Promise<void>;
}

export interface SchedulerOptions {
  context: () => AppContext;
  /** How often due tasks are looked for (default 1 s). */
  tickMs?: number;
}

/**
 * Periodic tasks, each run once per interval by one process of all those running a scheduler:
 * the lease store decides which. A task that throws is logged and runs again next interval.
 */
export class Scheduler {
  readonly holder = newWorkerId();
  readonly #leases: LeaseStore;
  readonly #context: () => AppContext;
  readonly #tickMs: number;
  readonly #tasks = new Map<string, Task>();
  #timer?: NodeJS.Timeout;
  #ticking?: Promise<void>;
  #stopped = false;

  constructor(leases: LeaseStore, opts: SchedulerOptions) {
    this.#leases = leases;
    this.#context = opts.context;
    this.#tickMs = opts.tickMs ?? 1000;
  }

  /**
   * Runs `fn` every `intervalMs` in one process. `maxRunMs` (default: the interval, at least
   * a minute) bounds how long a holder that died keeps others from running it.
   */
  every(name: string, intervalMs: number, fn: PeriodicTask, maxRunMs?: number): void {
    if (this.#tasks.has(name)) throw new Error(`periodic task ${name} is already registered`);
    this.#tasks.set(name, { name, intervalMs, holdMs: maxRunMs ?? Math.max(intervalMs, 60_000), fn });
  }

  /** Has the task run at the next tick, in whichever process ticks first. */
  async runSoon(name: string): Promise<void> {
    await this.#leases.makeDue(name);
  }

  start(): void {
    const loop = () => {
      this.#ticking = runInBackground(() => this.#tick()).finally(() => {
        if (!this.#stopped) this.#timer = setTimeout(loop, this.#tickMs).unref();
      });
    };
    loop();
  }

  async #tick(): Promise<void> {
    for (const task of this.#tasks.values()) {
      if (this.#stopped) return;
      if (task.running) continue;
      try {
        await this.#leases.ensure(task.name);
        if (!(await this.#leases.acquire(task.name, this.holder, task.intervalMs, task.holdMs))) continue;
      } catch (e) {
        logger.error("Cannot take periodic task {name}: {error}", { name: task.name, error: e });
        continue;
      }
      task.running = this.#run(task).finally(() => {
        task.running = undefined;
      });
    }
  }

  async #run(task: Task): Promise<void> {
    try {
      await task.fn(this.#context());
    } catch (e) {
      logger.error("Periodic task {name} failed: {error}", { name: task.name, error: e });
    }
    try {
      await this.#leases.release(task.name, this.holder);
    } catch (e) {
      logger.error("Cannot release periodic task {name}: {error}", { name: task.name, error: e });
    }
  }

  /** Starts no more tasks and waits for running ones, at most `timeoutMs`. */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#ticking;
    const running = [...this.#tasks.values()].flatMap((t) => (t.running ? [t.running] : []));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(running),
      new Promise<void>((r) => {
        timer = setTimeout(r, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }
}

/** Redis leases when Redis is configured, else the database's. */
export async function createScheduler(ctx: AppContext, opts: { tickMs?: number } = {}): Promise<Scheduler> {
  const context = () => ctx;
  if (ctx.redis) {
    const { RedisLeaseStore } = await import("./redis.ts");
    return new Scheduler(new RedisLeaseStore(ctx.redis, ctx.config.redisNamespace), { context, ...opts });
  }
  const { DatabaseLeaseStore } = await import("./database.ts");
  const { SchedulerLeasesRepository } = await import("../../db/repositories/scheduler-leases.ts");
  return new Scheduler(new DatabaseLeaseStore(new SchedulerLeasesRepository(ctx.db)), { context, ...opts });
}
