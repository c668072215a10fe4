import type { Kysely } from "kysely";

/** Follow requests to locked accounts, with the options the follow will take when authorized. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("follow_requests")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("target_account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("show_reblogs", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("notify", "boolean", (c) => c.notNull().defaultTo(false))
    // JSON array of language codes, or null for all (as follows.languages).
    .addColumn("languages", "text")
    .addColumn("uri", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("follow_requests_account_target")
    .on("follow_requests")
    .columns(["account_id", "target_account_id"])
    .unique()
    .execute();
  // The incoming requests list, paged by request id.
  await db.schema
    .createIndex("follow_requests_target_account")
    .on("follow_requests")
    .columns(["target_account_id", "id"])
    .execute();
  // The following list pages `follows` of one account by id.
  await db.schema.createIndex("follows_account_id").on("follows").columns(["account_id", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("follows_account_id").ifExists().execute();
  await db.schema.dropTable("follow_requests").ifExists().execute();
}
