import type { Kysely } from "kysely";

/**
 * Lists (Mastodon's List and ListAccount) and their materialised timelines (`list_feeds`, filled
 * on write like the home `feeds`). A membership points at the owner's follow of the member
 * (`follow_id`, null when owners list themselves); ending the follow ends the membership.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("lists")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("replies_policy", "text", (c) => c.notNull().defaultTo("list"))
    .addColumn("exclusive", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("lists_account_id").on("lists").columns(["account_id", "id"]).execute();

  await db.schema
    .createTable("list_accounts")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("list_id", "bigint", (c) => c.notNull().references("lists.id").onDelete("cascade"))
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("follow_id", "bigint", (c) => c.references("follows.id").onDelete("cascade"))
    .execute();
  await db.schema
    .createIndex("list_accounts_list_account")
    .on("list_accounts")
    .columns(["list_id", "account_id"])
    .unique()
    .execute();
  // Fan-out finds the lists holding an author; accounts/:id/lists the same.
  await db.schema
    .createIndex("list_accounts_account_list")
    .on("list_accounts")
    .columns(["account_id", "list_id"])
    .execute();
  await db.schema.createIndex("list_accounts_follow_id").on("list_accounts").column("follow_id").execute();

  await db.schema
    .createTable("list_feeds")
    .addColumn("list_id", "bigint", (c) => c.notNull().references("lists.id").onDelete("cascade"))
    .addColumn("status_id", "bigint", (c) => c.notNull().references("statuses.id").onDelete("cascade"))
    .addColumn("reblog_of_id", "bigint")
    .addPrimaryKeyConstraint("list_feeds_pkey", ["list_id", "status_id"])
    .execute();
  await db.schema.createIndex("list_feeds_status_id").on("list_feeds").column("status_id").execute();
  await db.schema.createIndex("list_feeds_list_reblog").on("list_feeds").columns(["list_id", "reblog_of_id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("list_feeds").ifExists().execute();
  await db.schema.dropTable("list_accounts").ifExists().execute();
  await db.schema.dropTable("lists").ifExists().execute();
}
