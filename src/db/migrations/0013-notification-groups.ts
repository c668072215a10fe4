import type { Kysely } from "kysely";

/** Grouped notifications (v2) read a group's members by key. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("notifications_account_id_group_key")
    .on("notifications")
    .columns(["account_id", "group_key", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("notifications_account_id_group_key").ifExists().execute();
}
