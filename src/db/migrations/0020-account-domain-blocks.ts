import type { Kysely } from "kysely";

/** User-level domain blocks (Mastodon's `account_domain_blocks`): domains normalised as `normalizeDomain`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("account_domain_blocks")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("domain", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // One block per account and domain; also the lookup "does the viewer block this domain".
  await db.schema
    .createIndex("account_domain_blocks_account_domain")
    .on("account_domain_blocks")
    .columns(["account_id", "domain"])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("account_domain_blocks").ifExists().execute();
}
