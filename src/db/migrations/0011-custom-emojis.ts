import { type Kysely, sql } from "kysely";

/**
 * Custom emojis: local ones (domain null), added with `gannet emoji`, and room for remote ones
 * (`uri`, `image_remote_url`) when federation copies them. A shortcode is unique per domain and
 * case-sensitive, as in Mastodon (`:Blob:` and `:blob:` are two emojis).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("custom_emojis")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("shortcode", "text", (c) => c.notNull())
    .addColumn("domain", "text")
    // Blob keys: the image as uploaded, and its first frame as a PNG for clients that do not animate.
    .addColumn("image_key", "text")
    .addColumn("static_key", "text")
    .addColumn("image_content_type", "text")
    .addColumn("image_file_size", "integer")
    .addColumn("image_remote_url", "text")
    .addColumn("uri", "text")
    .addColumn("category", "text")
    .addColumn("visible_in_picker", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("disabled", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // NULL domains are distinct in a plain unique index on both databases: index the local domain as ''.
  await sql`CREATE UNIQUE INDEX custom_emojis_shortcode_domain ON custom_emojis (shortcode, (COALESCE(domain, '')))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("custom_emojis").ifExists().execute();
}
