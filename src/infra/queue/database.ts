import type { Kysely } from "kysely";
import type { JobRow, JobsRepository } from "../../db/repositories/jobs.ts";
import type { DB } from "../../db/schema.ts";
import type { EnqueueOptions, JobState, JobSummary, JobToEnqueue, QueueState } from "./interface.ts";
import { type QueueOptions, StoreJobQueue } from "./runner.ts";
import type { ClaimedJob, JobStore, NewJob } from "./store.ts";

const iso = (ms: number) => new Date(ms).toISOString();

const toSummary = (r: JobRow): JobSummary => ({
  id: r.id,
  name: r.name,
  state: r.state,
  runAt: new Date(r.runAt),
  attempts: r.attempts,
  maxAttempts: r.maxAttempts,
  lastError: r.lastError,
  createdAt: new Date(r.createdAt),
});

const toRows = (jobs: NewJob[]) => jobs.map((j) => ({ ...j, runAt: iso(j.runAt), createdAt: iso(j.createdAt) }));

/** Jobs in the `jobs` table (SQLite or PostgreSQL). */
export class DatabaseJobStore implements JobStore {
  readonly #repo: JobsRepository;
  constructor(repo: JobsRepository) {
    this.#repo = repo;
  }
  insert(jobs: NewJob[], db?: Kysely<DB>): Promise<string[]> {
    return this.#repo.insert(toRows(jobs), db);
  }
  claim(workerId: string, names: string[], limit: number, now: number, lockedUntil: number): Promise<ClaimedJob[]> {
    return this.#repo.claim(workerId, names, limit, iso(now), iso(lockedUntil));
  }
  extendLocks(workerId: string, ids: string[], lockedUntil: number): Promise<void> {
    return this.#repo.extendLocks(workerId, ids, iso(lockedUntil));
  }
  complete(workerId: string, ids: string[]): Promise<void> {
    return this.#repo.complete(workerId, ids);
  }
  retry(workerId: string, id: string, runAt: number, error: string): Promise<void> {
    return this.#repo.retry(workerId, id, iso(runAt), error);
  }
  kill(workerId: string, id: string, error: string): Promise<void> {
    return this.#repo.kill(workerId, id, error);
  }
  purgeDead(before: number): Promise<number> {
    return this.#repo.purgeDead(iso(before));
  }
  async state(now: number, failingLimit: number): Promise<QueueState> {
    const [counts, oldest, failing] = await Promise.all([
      this.#repo.counts(iso(now)),
      this.#repo.oldestWaiting(iso(now)),
      this.#repo.failing(failingLimit),
    ]);
    return {
      counts: counts.map((c) => ({ ...c, state: c.state as JobState })),
      oldestWaiting: oldest && toSummary(oldest),
      failing: failing.map(toSummary),
    };
  }
}

/**
 * The queue of the embedded and single-server profiles. Several processes can share the table:
 * PostgreSQL claims skip rows another worker is taking.
 */
export class DatabaseJobQueue extends StoreJobQueue {
  readonly #store: DatabaseJobStore;
  constructor(repo: JobsRepository, opts: QueueOptions) {
    const store = new DatabaseJobStore(repo);
    super("database", store, opts);
    this.#store = store;
  }

  /**
   * Enqueues inside the caller's transaction: the jobs exist (and run) only if it commits.
   * Unlike enqueueing after the commit, a crash between the two cannot lose them.
   */
  async enqueueIn(
    trx: Kysely<DB>,
    name: string,
    payload?: unknown,
    options?: EnqueueOptions,
  ): Promise<string | undefined> {
    const [id] = await this.enqueueManyIn(trx, [{ name, payload, options }]);
    return id;
  }

  async enqueueManyIn(trx: Kysely<DB>, jobs: JobToEnqueue[]): Promise<string[]> {
    if (jobs.length === 0) return [];
    const ids = await this.#store.insert(this.toNewJobs(jobs), trx);
    // On SQLite the claim waits for the transaction to end; on PostgreSQL it may come before the
    // commit and find nothing, so look again shortly after.
    this.wake();
    setTimeout(() => this.wake(), 50).unref();
    return ids;
  }
}
