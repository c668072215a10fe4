import type { Kysely } from "kysely";

/** Media attachments: uploads waiting for a status, and the files of posted ones. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("media_attachments")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull())
    .addColumn("status_id", "bigint")
    .addColumn("scheduled_status_id", "bigint")
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("file_key", "text")
    .addColumn("file_content_type", "text")
    .addColumn("file_size", "bigint")
    .addColumn("small_key", "text")
    .addColumn("thumbnail_key", "text")
    .addColumn("thumbnail_content_type", "text")
    .addColumn("remote_url", "text")
    .addColumn("description", "text")
    .addColumn("focus_x", "double precision")
    .addColumn("focus_y", "double precision")
    .addColumn("blurhash", "text")
    .addColumn("meta", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("processing", "text", (c) => c.notNull().defaultTo("complete"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("media_attachments_account_id").on("media_attachments").column("account_id").execute();
  await db.schema.createIndex("media_attachments_status_id").on("media_attachments").column("status_id").execute();
  await db.schema
    .createIndex("media_attachments_scheduled_status_id")
    .on("media_attachments")
    .column("scheduled_status_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("media_attachments").ifExists().execute();
}
