import type { Kysely } from "kysely";

/** Notifications (v1) and reading-position markers. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("notifications")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull())
    .addColumn("from_account_id", "bigint", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("status_id", "bigint")
    // What caused it (the mentioning post, the favourite, the boost, the edit): a job that runs
    // twice inserts nothing the second time, and deleting the cause removes the notification.
    .addColumn("activity_id", "bigint", (c) => c.notNull())
    .addColumn("group_key", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("notifications_account_id_id")
    .on("notifications")
    .columns(["account_id", "id"])
    .execute();
  await db.schema
    .createIndex("notifications_activity")
    .on("notifications")
    .columns(["account_id", "type", "activity_id"])
    .unique()
    .execute();
  await db.schema.createIndex("notifications_status_id").on("notifications").column("status_id").execute();
  await db.schema.createIndex("notifications_activity_id").on("notifications").column("activity_id").execute();

  await db.schema
    .createTable("markers")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull())
    .addColumn("timeline", "text", (c) => c.notNull())
    .addColumn("last_read_id", "bigint", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("markers_account_id_timeline")
    .on("markers")
    .columns(["account_id", "timeline"])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("markers").ifExists().execute();
  await db.schema.dropTable("notifications").ifExists().execute();
}
