import type { Kysely } from "kysely";

/**
 * Instance-level domain blocks (Mastodon's `domain_blocks`, the moderators' tool, unlike the
 * users' `account_domain_blocks`) and domain allows (`domain_allows`, for the limited-federation
 * mode), plus `accounts.last_webfingered_at` so remote accounts can be refreshed when stale, and
 * a remote poll's counts as its server reports them (`polls.remote_counts`, a JSON array per
 * option, and `remote_voters_count`): the votes are cast and counted there.
 * `domain` may carry a port (`localhost:3001`): test servers and some small servers differ by it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("domain_blocks")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("domain", "text", (c) => c.notNull().unique())
    // noop | silence | suspend
    .addColumn("severity", "text", (c) => c.notNull().defaultTo("silence"))
    .addColumn("reject_media", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("reject_reports", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("private_comment", "text")
    .addColumn("public_comment", "text")
    .addColumn("obfuscate", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("domain_allows")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("domain", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.alterTable("accounts").addColumn("last_webfingered_at", "text").execute();
  await db.schema.alterTable("polls").addColumn("remote_counts", "text").execute();
  await db.schema.alterTable("polls").addColumn("remote_voters_count", "integer").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("polls").dropColumn("remote_voters_count").execute();
  await db.schema.alterTable("polls").dropColumn("remote_counts").execute();
  await db.schema.alterTable("accounts").dropColumn("last_webfingered_at").execute();
  await db.schema.dropTable("domain_allows").ifExists().execute();
  await db.schema.dropTable("domain_blocks").ifExists().execute();
}
