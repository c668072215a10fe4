import type { Kysely } from "kysely";

/**
 * Trends (Mastodon's Trends::Tags, ::Statuses, ::Links): the scheduler's latest score and rank of
 * each candidate, and whether it may be shown publicly (`allowed`, from the review settings and
 * the moderators' decisions); the moderators' switches on posts, links and link publishers.
 * `tags.trendable` already exists (0034).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("trend_tags")
    .addColumn("tag_id", "bigint", (c) => c.primaryKey().references("tags.id").onDelete("cascade"))
    .addColumn("score", "double precision", (c) => c.notNull().defaultTo(0))
    .addColumn("rank", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("allowed", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("trend_tags_allowed_rank").on("trend_tags").columns(["allowed", "rank"]).execute();

  await db.schema
    .createTable("trend_statuses")
    .addColumn("status_id", "bigint", (c) => c.primaryKey().references("statuses.id").onDelete("cascade"))
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("language", "text")
    .addColumn("score", "double precision", (c) => c.notNull().defaultTo(0))
    .addColumn("rank", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("allowed", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("trend_statuses_allowed_rank")
    .on("trend_statuses")
    .columns(["allowed", "language", "rank"])
    .execute();

  await db.schema
    .createTable("trend_links")
    .addColumn("preview_card_id", "bigint", (c) => c.primaryKey().references("preview_cards.id").onDelete("cascade"))
    .addColumn("language", "text")
    .addColumn("score", "double precision", (c) => c.notNull().defaultTo(0))
    .addColumn("rank", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("allowed", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("trend_links_allowed_rank")
    .on("trend_links")
    .columns(["allowed", "language", "rank"])
    .execute();

  // The sites links come from (Mastodon's PreviewCardProvider), one per host name.
  await db.schema
    .createTable("preview_card_providers")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("domain", "text", (c) => c.notNull().unique())
    .addColumn("trendable", "boolean")
    .addColumn("reviewed_at", "text")
    .addColumn("requested_review_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // null: not reviewed yet.
  await db.schema.alterTable("statuses").addColumn("trendable", "boolean").execute();
  await db.schema.alterTable("preview_cards").addColumn("trendable", "boolean").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("preview_cards").dropColumn("trendable").execute();
  await db.schema.alterTable("statuses").dropColumn("trendable").execute();
  for (const t of ["preview_card_providers", "trend_links", "trend_statuses", "trend_tags"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
