import type { DbBool, Generated, Nullable, Timestamp } from "./common.ts";

// Table types: the settings' import and export, and account moves (migration 0048).

/** An archive of a user's posts and media (Mastodon's Backup). */
export interface BackupsTable {
  id: string;
  user_id: string;
  /** The ZIP file in the blob store, once built. */
  blob_key: Nullable<string>;
  size: Nullable<number | string>;
  processed: Generated<DbBool>;
  created_at: Timestamp;
}

/** An uploaded CSV import (Mastodon's BulkImport). */
export interface BulkImportsTable {
  id: string;
  account_id: string;
  type: string;
  state: string;
  overwrite: Generated<DbBool>;
  likely_mismatched: Generated<DbBool>;
  total_items: Generated<number>;
  imported_items: Generated<number>;
  processed_items: Generated<number>;
  original_filename: Generated<string>;
  created_at: Timestamp;
  finished_at: Nullable<Timestamp>;
}

/** One line of an import still to do, or that failed (its values as JSON). */
export interface BulkImportRowsTable {
  id: string;
  bulk_import_id: string;
  data: string;
}

/** A move of a local account to another one (Mastodon's AccountMigration). */
export interface AccountMigrationsTable {
  id: string;
  account_id: string;
  acct: string;
  followers_count: Generated<number | string>;
  target_account_id: Nullable<string>;
  created_at: Timestamp;
}
