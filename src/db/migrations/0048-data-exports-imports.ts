import type { Kysely } from "kysely";

/**
 * The settings' import and export (Mastodon's Backup, BulkImport, BulkImportRow) and account
 * moves (AccountMigration):
 * - `backups`: an archive of a user's posts and media, built by a background job and kept in
 *   the blob store under `blob_key` until it is a week old;
 * - `bulk_imports` and `bulk_import_rows`: an uploaded CSV file, one row per line still to do
 *   (rows that failed stay, for the failures download), with its progress counters;
 * - `account_migrations`: each move of a local account to another one (the 30-day cooldown).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("backups")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("blob_key", "text")
    .addColumn("size", "bigint")
    .addColumn("processed", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("backups_user_id").on("backups").columns(["user_id", "id"]).execute();

  await db.schema
    .createTable("bulk_imports")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    // following, blocking, muting, domain_blocking, bookmarks, lists.
    .addColumn("type", "text", (c) => c.notNull())
    // unconfirmed, scheduled, in_progress, finished.
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("overwrite", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("likely_mismatched", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("total_items", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("imported_items", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("processed_items", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("original_filename", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("finished_at", "text")
    .execute();
  await db.schema.createIndex("bulk_imports_account_id").on("bulk_imports").columns(["account_id", "id"]).execute();

  await db.schema
    .createTable("bulk_import_rows")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("bulk_import_id", "bigint", (c) => c.notNull().references("bulk_imports.id").onDelete("cascade"))
    // The row's values as JSON: acct, show_reblogs, notify, languages, hide_notifications, domain, uri, list_name.
    .addColumn("data", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("bulk_import_rows_import")
    .on("bulk_import_rows")
    .columns(["bulk_import_id", "id"])
    .execute();

  await db.schema
    .createTable("account_migrations")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("acct", "text", (c) => c.notNull())
    .addColumn("followers_count", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("target_account_id", "bigint", (c) => c.references("accounts.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("account_migrations_account_id")
    .on("account_migrations")
    .columns(["account_id", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("account_migrations").ifExists().execute();
  await db.schema.dropTable("bulk_import_rows").ifExists().execute();
  await db.schema.dropTable("bulk_imports").ifExists().execute();
  await db.schema.dropTable("backups").ifExists().execute();
}
