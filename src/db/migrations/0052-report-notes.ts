import type { Kysely } from "kysely";

/**
 * Report notes (issue 19, the moderation panel; Mastodon's ReportNote): what the staff working on
 * a report write down about it, one row per note, each by a staff account. A note goes with its
 * report, and with its author's account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("report_notes")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("report_id", "bigint", (c) => c.notNull().references("reports.id").onDelete("cascade"))
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("report_notes_report_id").on("report_notes").columns(["report_id", "id"]).execute();
  await db.schema.createIndex("report_notes_account_id").on("report_notes").column("account_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("report_notes").ifExists().execute();
}
