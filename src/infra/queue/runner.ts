import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import { tracked } from "../../lib/activity.ts";
import { runInBackground } from "../../lib/background.ts";
import type { IdGenerator } from "../../lib/ids.ts";
import { withGuardedFetch } from "../../lib/net/scoped-fetch.ts";
import {
  type EnqueueOptions,
  type JobHandler,
  type JobQueue,
  type JobToEnqueue,
  PermanentJobError,
  type QueueState,
  type RegisterOptions,
  type StartOptions,
} from "./interface.ts";
import type { ClaimedJob, JobStore, NewJob } from "./store.ts";

const logger = getLogger(["gannet", "jobs"]);

export interface QueueOptions {
  /** What handlers receive. */
  context: () => AppContext;
  ids: IdGenerator;
  /** How often an idle worker looks for jobs enqueued by other processes or now due (default 1 s). */
  pollIntervalMs?: number;
  /** How long a taken job stays locked without a heartbeat (default 5 min). */
  lockMs?: number;
  /** First retry delay; each retry doubles it, with jitter (default 30 s). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Attempts when `enqueue` names none (default 10). */
  defaultAttempts?: number;
}

/** Jobs run at once: the names it takes and how many of them run. */
interface Pool {
  names: string[];
  concurrency: number;
  running: number;
  /**
   * Whether a claim may find work for it: set by an enqueue of one of its names in this process,
   * by each poll, and kept while its claims fill it. A claim that finds fewer jobs than it has
   * room for clears it, so jobs of other pools that finish do not make it look again: on SQLite,
   * a pool's claim walks past every due job of the others (thousands of deliveries after a burst
   * of posts), and it ran at every finished delivery.
   */
  due: boolean;
}

/**
 * Finished jobs are deleted, and their pools refilled, together within this much: one statement
 * for the jobs finishing meanwhile instead of a delete and a claim per job.
 */
const FINISH_BATCH_MS = 5;

/** Worker id: which process holds a job, for operators and for lock checks. */
export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

/**
 * The queue's behaviour over a `JobStore`: enqueueing, the worker loop, retries with
 * backoff, lock heartbeats and a bounded stop.
 */
export class StoreJobQueue implements JobQueue {
  readonly kind: "database" | "redis";
  readonly workerId = newWorkerId();
  /** Where the jobs are kept (tests and operator tools reach it directly). */
  readonly store: JobStore;
  readonly #opts: Required<Omit<QueueOptions, "context" | "ids">>;
  readonly #context: () => AppContext;
  readonly #ids: IdGenerator;
  readonly #handlers = new Map<string, JobHandler>();
  readonly #backoffs = new Map<string, (attempt: number) => number>();
  readonly #running = new Map<string, Promise<void>>();
  /** The default pool (every job without one of its own) first, then one per job that asked for its own. */
  readonly #pools: Pool[] = [{ names: [], concurrency: 0, running: 0, due: true }];
  /** Jobs done whose rows are deleted at the next turn of the loop (`FINISH_BATCH_MS`). */
  #completed: string[] = [];
  #finishTimer?: NodeJS.Timeout;
  #lastPoll = 0;
  #started = false;
  #stopping = false;
  #loop?: Promise<void>;
  #wake?: () => void;
  #woken = false;
  #heartbeat?: NodeJS.Timeout;

  constructor(kind: "database" | "redis", store: JobStore, opts: QueueOptions) {
    this.kind = kind;
    this.store = store;
    this.#context = opts.context;
    this.#ids = opts.ids;
    this.#opts = {
      pollIntervalMs: opts.pollIntervalMs ?? 1000,
      lockMs: opts.lockMs ?? 5 * 60_000,
      backoffBaseMs: opts.backoffBaseMs ?? 30_000,
      backoffMaxMs: opts.backoffMaxMs ?? 6 * 3600_000,
      defaultAttempts: opts.defaultAttempts ?? 10,
    };
  }

  protected toNewJobs(jobs: JobToEnqueue[]): NewJob[] {
    const now = Date.now();
    return jobs.map((j) => {
      const attempts = j.options?.attempts ?? this.#opts.defaultAttempts;
      if (!Number.isInteger(attempts) || attempts < 1) throw new Error(`bad attempts for job ${j.name}: ${attempts}`);
      return {
        id: this.#ids.next(),
        name: j.name,
        payload: j.payloadJson ?? JSON.stringify(j.payload ?? null),
        runAt: j.options?.runAt?.getTime() ?? now,
        maxAttempts: attempts,
        dedupeKey: j.options?.dedupeKey ?? null,
        createdAt: now,
      };
    });
  }

  async enqueue(name: string, payload?: unknown, options?: EnqueueOptions): Promise<string | undefined> {
    const [id] = await this.enqueueMany([{ name, payload, options }]);
    return id;
  }

  async enqueueMany(jobs: JobToEnqueue[]): Promise<string[]> {
    if (jobs.length === 0) return [];
    const ids = await this.store.insert(this.toNewJobs(jobs));
    this.wakeFor(jobs.map((j) => j.name));
    return ids;
  }

  register(name: string, handler: JobHandler, options: RegisterOptions = {}): void {
    if (this.#handlers.has(name)) throw new Error(`a handler for job ${name} is already registered`);
    this.#handlers.set(name, handler);
    if (options.backoff) this.#backoffs.set(name, options.backoff);
    if (options.concurrency !== undefined) {
      this.#pools.push({ names: [name], concurrency: Math.max(1, options.concurrency), running: 0, due: true });
    } else {
      this.#pools[0].names.push(name);
      this.#pools[0].due = true;
    }
  }

  #poolOf(name: string): Pool {
    return this.#pools.find((p) => p.names.includes(name)) ?? this.#pools[0];
  }

  /** Makes an idle worker look for jobs now, of every name. */
  wake(): void {
    for (const pool of this.#pools) pool.due = true;
    this.#poke();
  }

  /** Makes an idle worker look for jobs of these names now (they were just enqueued). */
  protected wakeFor(names: readonly string[]): void {
    for (const name of new Set(names)) this.#poolOf(name).due = true;
    this.#poke();
  }

  #poke(): void {
    this.#woken = true;
    this.#wake?.();
  }

  start(options: StartOptions = {}): void {
    if (this.#started) throw new Error("the job queue is already started");
    this.#started = true;
    this.#pools[0].concurrency = Math.max(1, options.concurrency ?? 5);
    this.#heartbeat = runInBackground(() =>
      setInterval(() => void this.#extendLocks(), Math.max(50, this.#opts.lockMs / 3)),
    );
    this.#heartbeat.unref();
    // Jobs wait for requests on SQLite's one connection (lib/background.ts).
    this.#loop = runInBackground(() => this.#work());
  }

  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.#started || this.#stopping) return;
    this.#stopping = true;
    this.#wake?.();
    await this.#loop;
    const all = Promise.allSettled([...this.#running.values()]);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((r) => {
      timer = setTimeout(r, timeoutMs);
    });
    await Promise.race([all, timeout]);
    clearTimeout(timer);
    clearTimeout(this.#finishTimer);
    await this.#flushCompleted();
    clearInterval(this.#heartbeat);
    if (this.#running.size > 0) {
      logger.warn("Stopped with {n} jobs still running; they run again when their locks expire", {
        n: this.#running.size,
      });
    }
  }

  purgeDead(before: Date): Promise<number> {
    return this.store.purgeDead(before.getTime());
  }

  state(): Promise<QueueState> {
    return this.store.state(Date.now(), 20);
  }

  async #work(): Promise<void> {
    while (!this.#stopping) {
      this.#woken = false;
      await this.#flushCompleted();
      // Jobs enqueued by other processes, or coming due (retries, delayed jobs): every pool looks.
      const poll = this.#opts.pollIntervalMs;
      if (Date.now() - this.#lastPoll >= poll) {
        this.#lastPoll = Date.now();
        for (const pool of this.#pools) pool.due = true;
      }
      let full = false;
      for (const pool of this.#pools) {
        const free = pool.concurrency - pool.running;
        if (free <= 0 || pool.names.length === 0 || !pool.due) continue;
        // Cleared first, so that an enqueue while the claim runs sets it again.
        pool.due = false;
        try {
          const now = Date.now();
          const jobs = await this.store.claim(this.workerId, pool.names, free, now, now + this.#opts.lockMs);
          for (const job of jobs) this.#start(job);
          // As many as it had room for: more may be due. Fewer: nothing more is, for this pool,
          // until an enqueue or a poll.
          if (jobs.length === free) {
            pool.due = true;
            full = true;
          }
        } catch (e) {
          pool.due = true;
          logger.error("Cannot take jobs: {error}", { error: e });
        }
      }
      // More may be due at once; otherwise sleep until an enqueue, finished jobs or the poll.
      if (full || this.#woken || this.#stopping) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, this.#lastPoll + poll - Date.now()));
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
  }

  #start(job: ClaimedJob): void {
    const pool = this.#poolOf(job.name);
    pool.running++;
    const p = this.#run(job).finally(() => {
      pool.running--;
      this.#running.delete(job.id);
      // The loop deletes the finished jobs and refills the pools shortly, for all of them at once.
      this.#finishTimer ??= setTimeout(() => {
        this.#finishTimer = undefined;
        this.#poke();
      }, FINISH_BATCH_MS);
    });
    this.#running.set(job.id, p);
  }

  /** Deletes the jobs done since the last call, in one statement. */
  async #flushCompleted(): Promise<void> {
    if (this.#completed.length === 0) return;
    const ids = this.#completed;
    this.#completed = [];
    await this.#settle(() => this.store.complete(this.workerId, ids));
  }

  async #run(job: ClaimedJob): Promise<void> {
    if (job.attempts > job.maxAttempts) {
      // Its worker died on the last attempt.
      await this.#settle(() => this.store.kill(this.workerId, job.id, "worker lost on the last attempt"));
      return;
    }
    const handler = this.#handlers.get(job.name);
    try {
      if (!handler) throw new Error(`no handler registered for job ${job.name}`);
      const info = { id: job.id, name: job.name, attempt: job.attempts, maxAttempts: job.maxAttempts };
      const ctx = this.#context();
      // Fedify's deliveries and lookups in a job obey the address policy (lib/net/scoped-fetch.ts).
      await tracked("job", job.name, () =>
        withGuardedFetch(ctx.guardedFetch, () => handler(ctx, JSON.parse(job.payload), info)),
      );
    } catch (e) {
      const error = e instanceof Error ? (e.stack ?? e.message) : String(e);
      const dead = e instanceof PermanentJobError || job.attempts >= job.maxAttempts;
      // One line each (a peer that is down fails every delivery to it, for days), its message's
      // first line only (some carry a response body); the stack at debug, and kept with the job.
      const message = (e instanceof Error ? e.message : String(e)).split("\n", 1)[0];
      const fields = { name: job.name, id: job.id, attempts: job.attempts, maxAttempts: job.maxAttempts, message };
      logger.debug("Job {name} {id} attempt {attempts} failed with: {stack}", { ...fields, stack: error });
      if (dead) {
        logger.warn("Job {name} {id} failed for good after {attempts} attempts: {message}", fields);
        await this.#settle(() => this.store.kill(this.workerId, job.id, error.slice(0, 4000)));
      } else {
        logger.info("Job {name} {id} failed (attempt {attempts} of {maxAttempts}), retrying: {message}", fields);
        const runAt = Date.now() + (this.#backoffs.get(job.name) ?? ((n: number) => this.backoff(n)))(job.attempts);
        await this.#settle(() => this.store.retry(this.workerId, job.id, runAt, error.slice(0, 4000)));
      }
      return;
    }
    // Deleted with the others finishing meanwhile (#flushCompleted); until then it stays locked
    // by this worker, and a crash before then runs it again, as a crash just before the delete did.
    this.#completed.push(job.id);
  }

  /** Delay before the retry after failed attempt `attempt`: doubling, capped, with ±25 % jitter. */
  backoff(attempt: number): number {
    const base = Math.min(this.#opts.backoffMaxMs, this.#opts.backoffBaseMs * 2 ** (attempt - 1));
    return Math.round(base * (0.75 + Math.random() * 0.5));
  }

  async #settle(f: () => Promise<void>): Promise<void> {
    try {
      await f();
    } catch (e) {
      // The lock expires and the job runs again: handlers are idempotent.
      logger.error("Cannot record a job's outcome: {error}", { error: e });
    }
  }

  async #extendLocks(): Promise<void> {
    if (this.#running.size === 0) return;
    try {
      await this.store.extendLocks(this.workerId, [...this.#running.keys()], Date.now() + this.#opts.lockMs);
    } catch (e) {
      logger.error("Cannot extend job locks: {error}", { error: e });
    }
  }
}
