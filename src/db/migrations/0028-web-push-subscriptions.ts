import type { Kysely } from "kysely";

/**
 * Web Push subscriptions: one per access token (Mastodon), dropped with the token or the account.
 * `alerts` is a JSON array of the notification types enabled; `token_box` is the access token,
 * encrypted with the server's secret key, because Mastodon's push payload carries it (clients
 * fetch the notification with it) while tokens themselves are stored only as hashes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("web_push_subscriptions")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("access_token_id", "bigint", (c) =>
      c.notNull().unique().references("oauth_access_tokens.id").onDelete("cascade"),
    )
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("endpoint", "text", (c) => c.notNull())
    .addColumn("key_p256dh", "text", (c) => c.notNull())
    .addColumn("key_auth", "text", (c) => c.notNull())
    .addColumn("standard", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("alerts", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("policy", "text", (c) => c.notNull().defaultTo("all"))
    .addColumn("token_box", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("web_push_subscriptions_account")
    .on("web_push_subscriptions")
    .column("account_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("web_push_subscriptions").ifExists().execute();
}
