import { type Kysely, sql } from "kysely";

/** Statuses (posts and boosts), their edits, mentions, hashtags, favourites, bookmarks, pins, thread mutes, follows. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("statuses")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("uri", "text", (c) => c.notNull())
    .addColumn("url", "text")
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("in_reply_to_id", "bigint")
    .addColumn("in_reply_to_account_id", "bigint")
    .addColumn("reblog_of_id", "bigint")
    .addColumn("conversation_id", "bigint")
    .addColumn("text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("content", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("spoiler_text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("visibility", "text", (c) => c.notNull())
    .addColumn("sensitive", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("language", "text")
    .addColumn("local", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("application_id", "bigint")
    .addColumn("poll_id", "bigint")
    .addColumn("edited_at", "text")
    .addColumn("deleted_at", "text")
    .addColumn("replies_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("reblogs_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("favourites_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("statuses_uri").on("statuses").column("uri").unique().execute();
  await db.schema.createIndex("statuses_account_id_id").on("statuses").columns(["account_id", "id"]).execute();
  await db.schema.createIndex("statuses_reblog_of_id").on("statuses").columns(["reblog_of_id", "account_id"]).execute();
  await db.schema.createIndex("statuses_in_reply_to_id").on("statuses").column("in_reply_to_id").execute();
  await db.schema.createIndex("statuses_conversation_id").on("statuses").column("conversation_id").execute();
  // The public and local timelines: newest public, undeleted posts.
  await db.schema
    .createIndex("statuses_public_timeline")
    .on("statuses")
    .columns(["visibility", "local", "id"])
    .where(sql.ref("deleted_at"), "is", null)
    .execute();

  await db.schema
    .createTable("status_edits")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("status_id", "bigint", (c) => c.notNull().references("statuses.id").onDelete("cascade"))
    .addColumn("account_id", "bigint", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("content", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("spoiler_text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("sensitive", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("status_edits_status_id").on("status_edits").columns(["status_id", "id"]).execute();

  await db.schema
    .createTable("mentions")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("status_id", "bigint", (c) => c.notNull().references("statuses.id").onDelete("cascade"))
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("silent", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("mentions_status_account")
    .on("mentions")
    .columns(["status_id", "account_id"])
    .unique()
    .execute();
  await db.schema.createIndex("mentions_account_status").on("mentions").columns(["account_id", "status_id"]).execute();

  await db.schema
    .createTable("tags")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("display_name", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX tags_name ON tags (lower(name))`.execute(db);

  await db.schema
    .createTable("statuses_tags")
    .addColumn("status_id", "bigint", (c) => c.notNull().references("statuses.id").onDelete("cascade"))
    .addColumn("tag_id", "bigint", (c) => c.notNull().references("tags.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("statuses_tags_pkey", ["status_id", "tag_id"])
    .execute();
  await db.schema
    .createIndex("statuses_tags_tag_status")
    .on("statuses_tags")
    .columns(["tag_id", "status_id"])
    .execute();

  for (const table of ["favourites", "bookmarks", "status_pins"]) {
    await db.schema
      .createTable(table)
      .addColumn("id", "bigint", (c) => c.primaryKey())
      .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
      .addColumn("status_id", "bigint", (c) => c.notNull().references("statuses.id").onDelete("cascade"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex(`${table}_account_status`)
      .on(table)
      .columns(["account_id", "status_id"])
      .unique()
      .execute();
    await db.schema.createIndex(`${table}_status_id`).on(table).columns(["status_id", "id"]).execute();
  }

  await db.schema
    .createTable("conversation_mutes")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("conversation_id", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("conversation_mutes_account_conversation")
    .on("conversation_mutes")
    .columns(["account_id", "conversation_id"])
    .unique()
    .execute();

  await db.schema
    .createTable("follows")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("target_account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("show_reblogs", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("notify", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("languages", "text")
    .addColumn("uri", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("follows_account_target")
    .on("follows")
    .columns(["account_id", "target_account_id"])
    .unique()
    .execute();
  await db.schema.createIndex("follows_target_account").on("follows").columns(["target_account_id", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    "follows",
    "conversation_mutes",
    "status_pins",
    "bookmarks",
    "favourites",
    "statuses_tags",
    "tags",
    "mentions",
    "status_edits",
    "statuses",
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
