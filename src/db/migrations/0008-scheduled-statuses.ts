import type { Kysely } from "kysely";

/** Statuses to publish later (their media point at them through `media_attachments.scheduled_status_id`). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("scheduled_statuses")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull())
    .addColumn("scheduled_at", "text", (c) => c.notNull())
    // JSON: the ScheduledStatus `params` (what createStatus is called with when it is due).
    .addColumn("params", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("scheduled_statuses_account_id_id")
    .on("scheduled_statuses")
    .columns(["account_id", "id"])
    .execute();
  await db.schema
    .createIndex("scheduled_statuses_scheduled_at")
    .on("scheduled_statuses")
    .column("scheduled_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("scheduled_statuses").ifExists().execute();
}
