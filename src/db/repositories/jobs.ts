import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import type { DialectName } from "../database.ts";
import type { DB } from "../schema.ts";

export interface NewJobRow {
  id: string;
  name: string;
  /** JSON. */
  payload: string;
  runAt: string;
  maxAttempts: number;
  dedupeKey: string | null;
  createdAt: string;
}

export interface ClaimedJobRow {
  id: string;
  name: string;
  payload: string;
  /** Including this run. */
  attempts: number;
  maxAttempts: number;
  dedupeKey: string | null;
}

export interface JobRow {
  id: string;
  name: string;
  state: string;
  runAt: string;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  lockedBy: string | null;
  createdAt: string;
}

const toJobRow = (r: {
  id: string;
  name: string;
  state: string;
  run_at: string;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  locked_by: string | null;
  created_at: string;
}): JobRow => ({
  id: String(r.id),
  name: r.name,
  state: r.state,
  runAt: r.run_at,
  attempts: Number(r.attempts),
  maxAttempts: Number(r.max_attempts),
  lastError: r.last_error,
  lockedBy: r.locked_by,
  createdAt: r.created_at,
});

/** Rows of the `jobs` table: the database job queue. */
/** A job row as a claim takes it. */
interface TakenRow {
  id: string | number;
  name: string;
  payload: string;
  attempts: number;
  max_attempts: number;
  dedupe_key: string | null;
  run_at: string;
}

export class JobsRepository {
  readonly #db: Kysely<DB>;
  /** When `claim` last looked for jobs under expired locks (ms since the epoch). */
  #lastExpiredCheck = Number.NEGATIVE_INFINITY;
  readonly #dialect: DialectName;
  constructor(db: Kysely<DB>, dialect: DialectName) {
    this.#db = db;
    this.#dialect = dialect;
  }

  /**
   * Inserts jobs through `db` (a transaction, so they appear only when it commits). A job whose
   * dedupe key is already held by a pending job is dropped; returns the ids of those inserted.
   */
  async insert(rows: NewJobRow[], db: Kysely<DB> = this.#db): Promise<string[]> {
    const values = (r: NewJobRow) => ({
      id: r.id,
      name: r.name,
      payload: r.payload,
      state: "pending",
      run_at: r.runAt,
      max_attempts: r.maxAttempts,
      dedupe_key: r.dedupeKey,
      created_at: r.createdAt,
    });
    const ids: string[] = [];
    // Jobs without a dedupe key cannot conflict: a few statements for all of them.
    const plain = rows.filter((r) => r.dedupeKey === null);
    for (let i = 0; i < plain.length; i += 500) {
      const chunk = plain.slice(i, i + 500);
      await db.insertInto("jobs").values(chunk.map(values)).execute();
      for (const r of chunk) ids.push(r.id);
    }
    for (const r of rows) {
      if (r.dedupeKey === null) continue;
      const res = await db
        .insertInto("jobs")
        .values(values(r))
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(res.numInsertedOrUpdatedRows ?? 0) > 0) ids.push(r.id);
    }
    return ids;
  }

  /**
   * Takes up to `limit` jobs named in `names` that are due, oldest first, then (when fewer were
   * due) jobs running under an expired lock (their worker died). The due ones are read in the
   * order of the index (state, run_at, id), the read stopping at `limit` (one query with an OR
   * had the database sort every due job at each claim). On PostgreSQL each is one statement
   * whose rows locked by another worker's claim are skipped. On SQLite the due ones are read
   * first and updated only when there are some (most claims, woken by each enqueue and each
   * finished job, find none), the update taking only those still pending. Expired locks are
   * looked for at most once a second (or ten times per lock period when shorter): a dead worker's
   * jobs wait that much longer.
   */
  async claim(
    workerId: string,
    names: string[],
    limit: number,
    nowIso: string,
    lockedUntilIso: string,
  ): Promise<ClaimedJobRow[]> {
    if (names.length === 0 || limit <= 0) return [];
    const due = this.#db
      .selectFrom("jobs")
      .select("id")
      .where("state", "=", "pending")
      .where("run_at", "<=", nowIso)
      .where("name", "in", names)
      .orderBy("run_at")
      .orderBy("id")
      .limit(limit);
    let rows: TakenRow[];
    if (this.#dialect === "postgres") {
      rows = await this.#take(workerId, due.forUpdate().skipLocked(), lockedUntilIso);
    } else {
      // The oldest due jobs whatever their names first: SQLite builds the `IN` list of names
      // into a temporary index at each run (70 µs of a claim's 120); asked again with it only
      // when one of those jobs is not this worker's.
      const head = await this.#db
        .selectFrom("jobs")
        .select(["id", "name"])
        .where("state", "=", "pending")
        .where("run_at", "<=", nowIso)
        .orderBy("run_at")
        .orderBy("id")
        .limit(limit)
        .execute();
      const handled = new Set(names);
      const ids = head.every((r) => handled.has(r.name))
        ? head.map((r) => String(r.id))
        : (await due.execute()).map((r) => String(r.id));
      rows = ids.length > 0 ? await this.#take(workerId, ids, lockedUntilIso, "pending") : [];
    }
    const now = Date.parse(nowIso);
    const lockMs = Date.parse(lockedUntilIso) - now;
    if (rows.length < limit && now - this.#lastExpiredCheck >= Math.min(1000, lockMs / 10)) {
      this.#lastExpiredCheck = now;
      let lost = this.#db
        .selectFrom("jobs")
        .select("id")
        .where("state", "=", "running")
        .where("locked_until", "<=", nowIso)
        .where("name", "in", names)
        .orderBy("locked_until")
        .limit(limit - rows.length);
      if (this.#dialect === "postgres") lost = lost.forUpdate().skipLocked();
      rows.push(...(await this.#take(workerId, lost, lockedUntilIso)));
    }
    return rows
      .sort((a, b) => (a.run_at < b.run_at ? -1 : a.run_at > b.run_at ? 1 : 0))
      .map((r) => ({
        id: String(r.id),
        name: r.name,
        payload: r.payload,
        attempts: Number(r.attempts),
        maxAttempts: Number(r.max_attempts),
        dedupeKey: r.dedupe_key,
      }));
  }

  /**
   * Marks the jobs `ids` (or those the query selects) as running under this worker's lock, only
   * those still in `state` when given; answers them.
   */
  async #take(
    workerId: string,
    ids: readonly string[] | SelectQueryBuilder<DB, "jobs", { id: string }>,
    lockedUntilIso: string,
    state?: "pending",
  ): Promise<TakenRow[]> {
    let q = this.#db
      .updateTable("jobs")
      .set({
        state: "running",
        locked_by: workerId,
        locked_until: lockedUntilIso,
        attempts: sql<number>`attempts + 1`,
      })
      .where("id", "in", ids);
    // `+state`: SQLite would otherwise look the ids up through the (state, run_at, id) index,
    // walking every pending job, rather than through the primary key (PostgreSQL never gets here).
    if (state) q = q.where(sql<string>`+state`, "=", state);
    const rows = await q
      .returning(["id", "name", "payload", "attempts", "max_attempts", "dedupe_key", "run_at"])
      .execute();
    return rows as TakenRow[];
  }

  /** Keeps the locks of jobs still running in this worker. */
  async extendLocks(workerId: string, ids: string[], lockedUntilIso: string): Promise<void> {
    if (ids.length === 0) return;
    await this.#db
      .updateTable("jobs")
      .set({ locked_until: lockedUntilIso })
      .where("id", "in", ids)
      .where("locked_by", "=", workerId)
      .where("state", "=", "running")
      .execute();
  }

  /** Deletes the finished jobs `ids` this worker still holds (a few statements for many jobs). */
  async complete(workerId: string, ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      await this.#db.deleteFrom("jobs").where("id", "in", chunk).where("locked_by", "=", workerId).execute();
    }
  }

  /**
   * Puts a failed job back to wait until `runAtIso`. When a newer job with the same dedupe key
   * is already waiting, that one does the work and this one is deleted.
   */
  async retry(workerId: string, id: string, runAtIso: string, error: string): Promise<void> {
    try {
      await this.#db
        .updateTable("jobs")
        .set({ state: "pending", run_at: runAtIso, locked_by: null, locked_until: null, last_error: error })
        .where("id", "=", id)
        .where("locked_by", "=", workerId)
        .execute();
    } catch {
      await this.complete(workerId, [id]);
    }
  }

  /** Gives up on a job; it stays in the table for inspection. */
  async kill(workerId: string | null, id: string, error: string): Promise<void> {
    let q = this.#db
      .updateTable("jobs")
      .set({ state: "dead", locked_by: null, locked_until: null, last_error: error })
      .where("id", "=", id);
    if (workerId !== null) q = q.where("locked_by", "=", workerId);
    await q.execute();
  }

  /** Job counts by name and state: `waiting` (due), `delayed`, `running`, `dead`. */
  async counts(nowIso: string): Promise<{ name: string; state: string; count: number }[]> {
    const rows = await this.#db
      .selectFrom("jobs")
      .select((eb) => [
        "name",
        eb
          .case()
          .when(eb.and([eb("state", "=", "pending"), eb("run_at", "<=", nowIso)]))
          .then("waiting")
          .when("state", "=", "pending")
          .then("delayed")
          .else(eb.ref("state"))
          .end()
          .as("s"),
        eb.fn.countAll().as("n"),
      ])
      .groupBy(["name", "s"])
      .orderBy("name")
      .orderBy("s")
      .execute();
    return rows.map((r) => ({ name: r.name, state: String(r.s), count: Number(r.n) }));
  }

  /** The job that has waited longest past its run time. */
  async oldestWaiting(nowIso: string): Promise<JobRow | undefined> {
    const r = await this.#db
      .selectFrom("jobs")
      .selectAll()
      .where("state", "=", "pending")
      .where("run_at", "<=", nowIso)
      .orderBy("run_at")
      .orderBy("id")
      .limit(1)
      .executeTakeFirst();
    return r ? toJobRow(r) : undefined;
  }

  /** Jobs whose last attempt failed (retrying or dead), most recent first. */
  async failing(limit: number): Promise<JobRow[]> {
    const rows = await this.#db
      .selectFrom("jobs")
      .selectAll()
      .where("last_error", "is not", null)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.map(toJobRow);
  }

  /** Deletes dead jobs last scheduled before `beforeIso`; returns how many. */
  async purgeDead(beforeIso: string): Promise<number> {
    const r = await this.#db
      .deleteFrom("jobs")
      .where("state", "=", "dead")
      .where("run_at", "<", beforeIso)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async getById(id: string): Promise<JobRow | undefined> {
    const r = await this.#db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirst();
    return r ? toJobRow(r) : undefined;
  }
}
