import type { Kysely } from "kysely";

/**
 * Quote posts (Mastodon 4.5, FEP-044f): one row per quoting post, with the state of its approval
 * by the quoted post's author; each post's quote policy and its count of accepted quotes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("quotes")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    // The quoting post and its author.
    .addColumn("status_id", "bigint", (c) => c.notNull().unique().references("statuses.id").onDelete("cascade"))
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    // The quoted post and its author; null when it is gone or could not be fetched.
    .addColumn("quoted_status_id", "bigint", (c) => c.references("statuses.id").onDelete("set null"))
    .addColumn("quoted_account_id", "bigint", (c) => c.references("accounts.id").onDelete("set null"))
    // pending | accepted | rejected | revoked | deleted | unauthorized
    .addColumn("state", "text", (c) => c.notNull())
    // The quoted post's URI as the quoting post names it (kept when the post is not known here).
    .addColumn("quoted_uri", "text")
    // The QuoteAuthorization stamp's URI, once approved.
    .addColumn("approval_uri", "text")
    // The QuoteRequest activity's id.
    .addColumn("activity_uri", "text")
    // From the older forms (`_misskey_quote`, `quoteUrl`) without an approval process.
    .addColumn("legacy", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("quotes_quoted_status")
    .on("quotes")
    .columns(["quoted_status_id", "state", "id"])
    .execute();
  await db.schema.createIndex("quotes_quoted_account").on("quotes").columns(["quoted_account_id"]).execute();
  await db.schema.createIndex("quotes_account").on("quotes").columns(["account_id"]).execute();

  // JSON `{"automatic": [...], "manual": [...]}` in the QuoteApproval entity's words (public,
  // followers, following, unsupported_policy); null: only the author may quote.
  await db.schema.alterTable("statuses").addColumn("quote_policy", "text").execute();
  await db.schema
    .alterTable("statuses")
    .addColumn("quotes_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("statuses").dropColumn("quotes_count").execute();
  await db.schema.alterTable("statuses").dropColumn("quote_policy").execute();
  await db.schema.dropTable("quotes").ifExists().execute();
}
