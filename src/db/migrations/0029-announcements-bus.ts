import type { Kysely } from "kysely";

/**
 * Announcements (Mastodon's Announcement, AnnouncementMute and AnnouncementReaction), and the
 * PostgreSQL event bus's two tables: the channels some process listens to, and the payloads too
 * large for a NOTIFY (see docs/scaling.md, "The event bus"). SQLite has the bus tables too, unused, so both
 * databases keep one schema.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("announcements")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("published", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("all_day", "boolean", (c) => c.notNull().defaultTo(false))
    // When an unpublished announcement is to be published (Mastodon's scheduled announcements).
    .addColumn("scheduled_at", "text")
    .addColumn("starts_at", "text")
    .addColumn("ends_at", "text")
    .addColumn("published_at", "text")
    // JSON array of status ids the announcement points to (Announcement::Status), or null.
    .addColumn("status_ids", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // Dismissed ("read") announcements, one row per account and announcement.
  await db.schema
    .createTable("announcement_mutes")
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("announcement_id", "bigint", (c) => c.notNull().references("announcements.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("announcement_mutes_pkey", ["account_id", "announcement_id"])
    .execute();

  await db.schema
    .createTable("announcement_reactions")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("announcement_id", "bigint", (c) => c.notNull().references("announcements.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    // A local custom emoji's reaction goes with the emoji, as in Mastodon.
    .addColumn("custom_emoji_id", "bigint", (c) => c.references("custom_emojis.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("announcement_reactions_unique")
    .on("announcement_reactions")
    .columns(["account_id", "announcement_id", "name"])
    .unique()
    .execute();
  await db.schema
    .createIndex("announcement_reactions_announcement")
    .on("announcement_reactions")
    .columns(["announcement_id", "name"])
    .execute();

  // Times in ms by the database's clock: marks are compared across processes.
  await db.schema
    .createTable("bus_listeners")
    .addColumn("channel", "text", (c) => c.primaryKey())
    .addColumn("since", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("bus_payloads")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("bus_payloads").ifExists().execute();
  await db.schema.dropTable("bus_listeners").ifExists().execute();
  await db.schema.dropTable("announcement_reactions").ifExists().execute();
  await db.schema.dropTable("announcement_mutes").ifExists().execute();
  await db.schema.dropTable("announcements").ifExists().execute();
}
