import type { Kysely } from "kysely";

/** Polls attached to statuses, their votes, and the poll options kept in edit history. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("polls")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull())
    .addColumn("status_id", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "text")
    // JSON array of option titles, in order (a vote's `choice` is an index into it).
    .addColumn("options", "text", (c) => c.notNull())
    .addColumn("multiple", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("hide_totals", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("polls_status_id").on("polls").column("status_id").execute();

  await db.schema
    .createTable("poll_votes")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("poll_id", "bigint", (c) => c.notNull())
    .addColumn("account_id", "bigint", (c) => c.notNull())
    .addColumn("choice", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // One vote per account and option: a vote that runs twice cannot count twice.
  await db.schema
    .createIndex("poll_votes_poll_account_choice")
    .on("poll_votes")
    .columns(["poll_id", "account_id", "choice"])
    .unique()
    .execute();

  await db.schema.alterTable("status_edits").addColumn("poll_options", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("status_edits").dropColumn("poll_options").execute();
  await db.schema.dropTable("poll_votes").ifExists().execute();
  await db.schema.dropTable("polls").ifExists().execute();
}
