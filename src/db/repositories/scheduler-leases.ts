import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";

/** Rows of `scheduler_leases`: which process runs each periodic task, and when it is next due. */
export class SchedulerLeasesRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** Makes the task known; a new task is due at once. */
  async ensure(name: string, nowIso: string): Promise<void> {
    await this.#db
      .insertInto("scheduler_leases")
      .values({ name, next_run_at: nowIso })
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();
  }

  /**
   * Takes the task when it is due and nobody holds it, in one statement, so of several
   * processes exactly one gets it; the hold ends at `lockedUntilIso` even if the holder dies.
   */
  async acquire(
    name: string,
    holder: string,
    nowIso: string,
    nextRunIso: string,
    lockedUntilIso: string,
  ): Promise<boolean> {
    const r = await this.#db
      .updateTable("scheduler_leases")
      .set({ next_run_at: nextRunIso, locked_by: holder, locked_until: lockedUntilIso, last_run_at: nowIso })
      .where("name", "=", name)
      .where("next_run_at", "<=", nowIso)
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", nowIso)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Makes the task due now (operators, tests); a run in progress is not interrupted. */
  async makeDue(name: string, nowIso: string): Promise<void> {
    await this.#db.updateTable("scheduler_leases").set({ next_run_at: nowIso }).where("name", "=", name).execute();
  }

  async release(name: string, holder: string): Promise<void> {
    await this.#db
      .updateTable("scheduler_leases")
      .set({ locked_until: null })
      .where("name", "=", name)
      .where("locked_by", "=", holder)
      .execute();
  }

  /** Every task's row, in one statement (the scheduler reads them now and then, not every tick). */
  async all(): Promise<
    { name: string; nextRunAt: string; lastRunAt: string | null; lockedBy: string | null; lockedUntil: string | null }[]
  > {
    const rows = await this.#db.selectFrom("scheduler_leases").selectAll().orderBy("name").execute();
    return rows.map((r) => ({
      name: r.name,
      nextRunAt: r.next_run_at,
      lastRunAt: r.last_run_at,
      lockedBy: r.locked_by,
      lockedUntil: r.locked_until,
    }));
  }
}
