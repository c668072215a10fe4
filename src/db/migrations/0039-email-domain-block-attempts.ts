import type { Kysely } from "kysely";

/**
 * The sign-up attempts an e-mail domain block caught (refused, or sent to the approval queue),
 * one row each: the block's `history` (Mastodon's Trends::History of the last seven days: uses
 * and distinct addresses per day) is counted from them. Rows go with their block.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("email_domain_block_attempts")
    .addColumn("email_domain_block_id", "bigint", (c) =>
      c.notNull().references("email_domain_blocks.id").onDelete("cascade"),
    )
    // The UTC day of the attempt, `YYYY-MM-DD`.
    .addColumn("day", "text", (c) => c.notNull())
    // The client's address; empty when unknown.
    .addColumn("ip", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("email_domain_block_attempts_block_day")
    .on("email_domain_block_attempts")
    .columns(["email_domain_block_id", "day"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("email_domain_block_attempts").ifExists().execute();
}
