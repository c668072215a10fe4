import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import { tracked } from "../../lib/activity.ts";
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
  /** When the lease store last said the task could be taken (ms since the epoch; 0: now). */
  takeableAt: number;
}

export interface SchedulerOptions {
  context: () => AppContext;
  /** How often due tasks are looked for (default 1 s). */
  tickMs?: number;
  /**
   * How often the due times are read again from the lease store (default 10 s): how late a
   * `runSoon` from another process is seen (this process's are seen at the next tick).
   */
  refreshMs?: number;
}

/** The started schedulers of this process, told at once of a `runSoon` made here. */
const started = new Set<Scheduler>();

/**
 * Periodic tasks, each run once per interval by one process of all those running a scheduler:
 * the lease store decides which. A task that throws is logged and runs again next interval.
 *
 * A tick touches the lease store only for a task that is due: the due times are kept here, read
 * from the store at start, every `refreshMs`, and after a task was taken elsewhere. (Asking the
 * store for every task at every tick cost two statements per task per second, 26 a second with
 * 13 tasks, all on the main thread with SQLite.) The lease itself is unchanged: a task runs only
 * in the process whose `acquire` succeeded, and a dead holder's lease ends after `holdMs`.
 */
export class Scheduler {
  readonly holder = newWorkerId();
  readonly #leases: LeaseStore;
  readonly #context: () => AppContext;
  readonly #tickMs: number;
  readonly #refreshMs: number;
  readonly #tasks = new Map<string, Task>();
  /** When the due times are next read from the store (0: at the next tick). */
  #refreshAt = 0;
  #timer?: NodeJS.Timeout;
  #ticking?: Promise<void>;
  #stopped = false;

  constructor(leases: LeaseStore, opts: SchedulerOptions) {
    this.#leases = leases;
    this.#context = opts.context;
    this.#tickMs = opts.tickMs ?? 1000;
    this.#refreshMs = opts.refreshMs ?? 10_000;
  }

  /**
   * Runs `fn` every `intervalMs` in one process. `maxRunMs` (default: the interval, at least
   * a minute) bounds how long a holder that died keeps others from running it.
   */
  every(name: string, intervalMs: number, fn: PeriodicTask, maxRunMs?: number): void {
    if (this.#tasks.has(name)) throw new Error(`periodic task ${name} is already registered`);
    this.#tasks.set(name, { name, intervalMs, holdMs: maxRunMs ?? Math.max(intervalMs, 60_000), fn, takeableAt: 0 });
  }

  /** Has the task run at the next tick, in whichever process ticks first. */
  async runSoon(name: string): Promise<void> {
    await this.#leases.makeDue(name);
    for (const s of started) s.#wake(name);
  }

  /** Looks at the store for this task at the next tick (a wake for another database is harmless). */
  #wake(name: string): void {
    const task = this.#tasks.get(name);
    if (task) task.takeableAt = 0;
  }

  start(): void {
    started.add(this);
    const loop = () => {
      this.#ticking = runInBackground(() => this.#tick()).finally(() => {
        if (!this.#stopped) this.#timer = setTimeout(loop, this.#tickMs).unref();
      });
    };
    loop();
  }

  async #tick(): Promise<void> {
    if (Date.now() >= this.#refreshAt && !(await this.#refresh())) return;
    let missed = false;
    for (const task of this.#tasks.values()) {
      if (this.#stopped) return;
      if (task.running || Date.now() < task.takeableAt) continue;
      const now = Date.now();
      try {
        if (!(await this.#leases.acquire(task.name, this.holder, task.intervalMs, task.holdMs))) {
          // Taken (or held) elsewhere: the store says until when.
          task.takeableAt = now + this.#tickMs;
          missed = true;
          continue;
        }
      } catch (e) {
        logger.error("Cannot take periodic task {name}: {error}", { name: task.name, error: e });
        continue;
      }
      task.takeableAt = now + task.intervalMs;
      task.running = this.#run(task).finally(() => {
        task.running = undefined;
      });
    }
    if (missed && !this.#stopped) await this.#refresh();
  }

  /** Reads every task's due time from the store, recording the tasks it does not know yet. */
  async #refresh(): Promise<boolean> {
    const tasks = [...this.#tasks.values()];
    try {
      const at = await this.#leases.takeableAt(tasks.map((t) => t.name));
      for (const task of tasks) {
        const when = at.get(task.name);
        if (when === undefined) await this.#leases.ensure(task.name);
        // A task being run here keeps the due time its acquire set.
        if (!task.running) task.takeableAt = when ?? 0;
      }
    } catch (e) {
      logger.error("Cannot read the periodic tasks' due times: {error}", { error: e });
      this.#refreshAt = Date.now() + this.#tickMs;
      return false;
    }
    this.#refreshAt = Date.now() + this.#refreshMs;
    return true;
  }

  async #run(task: Task): Promise<void> {
    try {
      await tracked("task", task.name, () => task.fn(this.#context()));
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
    started.delete(this);
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
