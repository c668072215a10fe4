import type { Kysely } from "kysely";

/** Keyword and status filters (Mastodon's CustomFilter, CustomFilterKeyword, CustomFilterStatus). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("filters")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    // JSON array of contexts: home, notifications, public, thread, account.
    .addColumn("context", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull().defaultTo("warn"))
    // null: forever; an expired filter is kept (clients may extend it) but applies no more.
    .addColumn("expires_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("filters_account").on("filters").columns(["account_id", "id"]).execute();

  await db.schema
    .createTable("filter_keywords")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("filter_id", "bigint", (c) => c.notNull().references("filters.id").onDelete("cascade"))
    .addColumn("keyword", "text", (c) => c.notNull())
    .addColumn("whole_word", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("filter_keywords_filter").on("filter_keywords").columns(["filter_id", "id"]).execute();

  await db.schema
    .createTable("filter_statuses")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("filter_id", "bigint", (c) => c.notNull().references("filters.id").onDelete("cascade"))
    .addColumn("status_id", "bigint", (c) => c.notNull().references("statuses.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("filter_statuses_filter_status")
    .on("filter_statuses")
    .columns(["filter_id", "status_id"])
    .unique()
    .execute();
  await db.schema.createIndex("filter_statuses_status").on("filter_statuses").column("status_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("filter_statuses").ifExists().execute();
  await db.schema.dropTable("filter_keywords").ifExists().execute();
  await db.schema.dropTable("filters").ifExists().execute();
}
