import type { AppContext } from "../../context.ts";

export interface EnqueueOptions {
  /** Not before this time (default: now). */
  runAt?: Date;
  /**
   * At most one job with this key waits at a time: enqueueing again while one has not started
   * is a no-op. Once the job starts, the key is free again, so a change made while it runs is
   * not lost.
   */
  dedupeKey?: string;
  /** How many times the job may run before it is dead (default: the queue's, 10). */
  attempts?: number;
}

export interface JobToEnqueue {
  name: string;
  payload?: unknown;
  /**
   * The payload already as JSON (`payload` is then not serialised again): for callers that
   * enqueue many jobs sharing large parts, serialised once (federation/queue.ts).
   */
  payloadJson?: string;
  options?: EnqueueOptions;
}

export interface JobInfo {
  id: string;
  name: string;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
}

/**
 * Handles one job. Throwing retries it later (exponential backoff with jitter) until its
 * attempts are used up; throw `PermanentJobError` to give up at once. A job may run more than
 * once (a worker can die after the work and before the job is marked done): keep handlers
 * idempotent.
 */
export type JobHandler<P = any> = (ctx: AppContext, payload: P, job: JobInfo) => Promise<void>;

/** A failure that retrying cannot fix: the job is dead at once. */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}

/** `waiting` is due and not taken, `delayed` waits for its run time (retries included). */
export type JobState = "waiting" | "delayed" | "running" | "dead";

export interface JobSummary {
  id: string;
  name: string;
  state: string;
  runAt: Date;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  createdAt: Date;
}

/** What operators look at (`gannet jobs list`). */
export interface QueueState {
  counts: { name: string; state: JobState; count: number }[];
  /** The due job that has waited longest, if any. */
  oldestWaiting?: JobSummary;
  /** Jobs whose last run failed (retrying or dead), most recent first. */
  failing: JobSummary[];
}

export interface StartOptions {
  /** Jobs run at once by this process (default 5), those registered with a pool of their own aside. */
  concurrency?: number;
}

export interface RegisterOptions {
  /**
   * The job runs in a pool of its own, this many at once in each process, beside the queue's
   * `concurrency`: jobs that mostly wait on the network (deliveries) then never hold back the
   * others, nor the others them.
   */
  concurrency?: number;
  /** Delay before the retry after failed attempt `attempt` (1 for the first), in ms; default the queue's. */
  backoff?: (attempt: number) => number;
}

/**
 * The durable background job queue. Services enqueue side effects after their transaction
 * commits (see `transactionWithJobs`), so a rolled-back change never has them run; handlers are
 * registered by name in every process that runs workers.
 */
export interface JobQueue {
  readonly kind: "database" | "redis";
  /** The new job's id, or undefined when a pending job with the same dedupe key exists. */
  enqueue(name: string, payload?: unknown, options?: EnqueueOptions): Promise<string | undefined>;
  /** The ids of the jobs enqueued (deduplicated ones left out). */
  enqueueMany(jobs: JobToEnqueue[]): Promise<string[]>;
  /**
   * A worker takes only jobs it has a handler for: others wait (and show in `state()`) for a
   * process that has one.
   */
  register(name: string, handler: JobHandler, options?: RegisterOptions): void;
  /** Starts this process's workers; jobs are taken from now on. */
  start(options?: StartOptions): void;
  /**
   * Takes no more jobs and waits for those running, at most `timeoutMs` (default 10 s): jobs
   * still running then are taken up again by a worker once their lock expires.
   */
  stop(timeoutMs?: number): Promise<void>;
  state(): Promise<QueueState>;
  /** Forgets dead jobs older than `before` (a periodic task calls it). */
  purgeDead(before: Date): Promise<number>;
}
