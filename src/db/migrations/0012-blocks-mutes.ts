import type { Kysely } from "kysely";

/** Account blocks and mutes (user level). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("blocks")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("target_account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("uri", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("blocks_account_target")
    .on("blocks")
    .columns(["account_id", "target_account_id"])
    .unique()
    .execute();
  // "Who blocks me" (blocked_by, the author side of visibility).
  await db.schema
    .createIndex("blocks_target_account")
    .on("blocks")
    .columns(["target_account_id", "account_id"])
    .execute();

  await db.schema
    .createTable("mutes")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("target_account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("hide_notifications", "boolean", (c) => c.notNull().defaultTo(true))
    // null: forever; an expired mute counts as absent until the periodic task deletes it.
    .addColumn("expires_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("mutes_account_target")
    .on("mutes")
    .columns(["account_id", "target_account_id"])
    .unique()
    .execute();
  await db.schema.createIndex("mutes_target_account").on("mutes").column("target_account_id").execute();
  await db.schema.createIndex("mutes_expires_at").on("mutes").column("expires_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("mutes").ifExists().execute();
  await db.schema.dropTable("blocks").ifExists().execute();
}
