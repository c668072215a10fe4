import { type Kysely, sql } from "kysely";

/** The background job queue (embedded and single-server profiles) and the scheduler's leases. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("jobs")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    // pending (waiting or delayed), running, dead; finished jobs are deleted.
    .addColumn("state", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("run_at", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull())
    .addColumn("locked_until", "text")
    .addColumn("locked_by", "text")
    .addColumn("last_error", "text")
    .addColumn("dedupe_key", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("jobs_state_run_at").on("jobs").columns(["state", "run_at"]).execute();
  await db.schema.createIndex("jobs_state_locked_until").on("jobs").columns(["state", "locked_until"]).execute();
  // A dedupe key is unique among the jobs that have not started yet.
  await db.schema
    .createIndex("jobs_pending_dedupe_key")
    .on("jobs")
    .column("dedupe_key")
    .unique()
    .where(sql<boolean>`state = 'pending'`)
    .execute();

  await db.schema
    .createTable("scheduler_leases")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("next_run_at", "text", (c) => c.notNull())
    .addColumn("locked_by", "text")
    .addColumn("locked_until", "text")
    .addColumn("last_run_at", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("scheduler_leases").execute();
  await db.schema.dropTable("jobs").execute();
}
