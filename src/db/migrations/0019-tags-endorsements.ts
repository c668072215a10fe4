import type { Kysely } from "kysely";

/**
 * Personal curation: followed hashtags, featured hashtags, endorsed accounts (Mastodon's
 * account pins), private notes on accounts and dismissed follow suggestions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("tag_follows")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("tag_id", "bigint", (c) => c.notNull().references("tags.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("tag_follows_account_tag")
    .on("tag_follows")
    .columns(["account_id", "tag_id"])
    .unique()
    .execute();
  // Fan-out: the followers of a post's tags.
  await db.schema.createIndex("tag_follows_tag_account").on("tag_follows").columns(["tag_id", "account_id"]).execute();

  await db.schema
    .createTable("featured_tags")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("tag_id", "bigint", (c) => c.notNull().references("tags.id").onDelete("cascade"))
    .addColumn("statuses_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_status_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("featured_tags_account_tag")
    .on("featured_tags")
    .columns(["account_id", "tag_id"])
    .unique()
    .execute();

  await db.schema
    .createTable("account_pins")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("target_account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("account_pins_account_target")
    .on("account_pins")
    .columns(["account_id", "target_account_id"])
    .unique()
    .execute();
  await db.schema.createIndex("account_pins_target").on("account_pins").column("target_account_id").execute();

  await db.schema
    .createTable("account_notes")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("target_account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("comment", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("account_notes_account_target")
    .on("account_notes")
    .columns(["account_id", "target_account_id"])
    .unique()
    .execute();
  await db.schema.createIndex("account_notes_target").on("account_notes").column("target_account_id").execute();

  await db.schema
    .createTable("account_suggestion_dismissals")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("target_account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("account_suggestion_dismissals_account_target")
    .on("account_suggestion_dismissals")
    .columns(["account_id", "target_account_id"])
    .unique()
    .execute();
  await db.schema
    .createIndex("account_suggestion_dismissals_target")
    .on("account_suggestion_dismissals")
    .column("target_account_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("account_suggestion_dismissals").ifExists().execute();
  await db.schema.dropTable("account_notes").ifExists().execute();
  await db.schema.dropTable("account_pins").ifExists().execute();
  await db.schema.dropTable("featured_tags").ifExists().execute();
  await db.schema.dropTable("tag_follows").ifExists().execute();
}
