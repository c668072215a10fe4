import type { Kysely } from "kysely";

/** Reports (Mastodon's `reports`): an account reports another, with statuses, a comment and rules. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("reports")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    // The reporter.
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("target_account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    // JSON arrays of ids (as strings); `rule_ids` is null when no rule is named.
    .addColumn("status_ids", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("comment", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("category", "text", (c) => c.notNull().defaultTo("other"))
    .addColumn("rule_ids", "text")
    .addColumn("forwarded", "boolean", (c) => c.notNull().defaultTo(false))
    // null while unresolved.
    .addColumn("action_taken_at", "text")
    .addColumn("action_taken_by_account_id", "bigint", (c) => c.references("accounts.id").onDelete("set null"))
    .addColumn("assigned_account_id", "bigint", (c) => c.references("accounts.id").onDelete("set null"))
    .addColumn("uri", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // Reports about an account (unresolved siblings, the admin filter), and by an account.
  await db.schema.createIndex("reports_target_account_id").on("reports").columns(["target_account_id", "id"]).execute();
  await db.schema.createIndex("reports_account_id").on("reports").columns(["account_id", "id"]).execute();
  await db.schema
    .createIndex("reports_action_taken_by_account_id")
    .on("reports")
    .column("action_taken_by_account_id")
    .execute();
  await db.schema.createIndex("reports_assigned_account_id").on("reports").column("assigned_account_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("reports").ifExists().execute();
}
