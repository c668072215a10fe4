import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * Preview cards (Mastodon's `preview_cards` and `preview_cards_statuses`): one card per page URL,
 * shared by every status linking to it, and the link of each status to its card (with the URL
 * as the status wrote it, which the card's `url` shows). A status's `card` is part of its kept
 * JSON (statuses/kept.ts), so triggers log an `s` change in `render_changes` (migration 0024) for
 * the status when its link changes and for every status linking to a card when the card changes.
 */

const isPostgres = (db: Kysely<unknown>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("preview_cards")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("url", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    // link | photo | video | rich
    .addColumn("type", "text", (c) => c.notNull().defaultTo("link"))
    .addColumn("author_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("author_url", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("provider_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("provider_url", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("html", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("embed_url", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("language", "text")
    .addColumn("width", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("height", "integer", (c) => c.notNull().defaultTo(0))
    // The image as stored here (blob key), and where it came from (fetched again after retention).
    .addColumn("image_key", "text")
    .addColumn("image_remote_url", "text")
    .addColumn("image_description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("blurhash", "text")
    .addColumn("published_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("preview_cards_statuses")
    .addColumn("status_id", "bigint", (c) => c.primaryKey())
    .addColumn("preview_card_id", "bigint", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("preview_cards_statuses_card")
    .on("preview_cards_statuses")
    .column("preview_card_id")
    .execute();
  // The retention sweep looks for remote attachments cached before a date (services/media/remote-cache.ts).
  await db.schema
    .createIndex("media_attachments_remote_cached")
    .on("media_attachments")
    .column("created_at")
    .where(sql.ref("remote_url"), "is not", null)
    .execute();

  const run = (text: string) => sql.raw(text).execute(db);
  if (isPostgres(db)) {
    // gannet_render_change (migration 0024) logs the named column of the new and old rows.
    await run(`CREATE TRIGGER rc_preview_cards_statuses AFTER INSERT OR UPDATE OR DELETE ON preview_cards_statuses
      FOR EACH ROW EXECUTE FUNCTION gannet_render_change('s', 'status_id')`);
    await run(`CREATE FUNCTION gannet_render_preview_card() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO render_changes (kind, key)
          SELECT 's', status_id::text FROM preview_cards_statuses
          WHERE preview_card_id = CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
        RETURN NULL;
      END $$`);
    await run(`CREATE TRIGGER rc_preview_cards AFTER UPDATE OR DELETE ON preview_cards
      FOR EACH ROW EXECUTE FUNCTION gannet_render_preview_card()`);
  } else {
    for (const [op, rows] of [
      ["insert", ["new"]],
      ["update", ["new", "old"]],
      ["delete", ["old"]],
    ] as const) {
      const inserts = rows.map((r) => `INSERT INTO render_changes (kind, key) SELECT 's', ${r}.status_id;`).join("\n");
      await run(`CREATE TRIGGER rc_preview_cards_statuses_${op} AFTER ${op.toUpperCase()} ON preview_cards_statuses BEGIN
        ${inserts}
      END`);
    }
    for (const [op, row] of [
      ["update", "new"],
      ["delete", "old"],
    ] as const) {
      await run(`CREATE TRIGGER rc_preview_cards_${op} AFTER ${op.toUpperCase()} ON preview_cards BEGIN
        INSERT INTO render_changes (kind, key)
          SELECT 's', status_id FROM preview_cards_statuses WHERE preview_card_id = ${row}.id;
      END`);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`DROP TRIGGER IF EXISTS rc_preview_cards ON preview_cards`.execute(db);
    await sql`DROP TRIGGER IF EXISTS rc_preview_cards_statuses ON preview_cards_statuses`.execute(db);
    await sql`DROP FUNCTION IF EXISTS gannet_render_preview_card()`.execute(db);
  }
  await db.schema.dropIndex("media_attachments_remote_cached").ifExists().execute();
  await db.schema.dropTable("preview_cards_statuses").ifExists().execute();
  await db.schema.dropTable("preview_cards").ifExists().execute();
}
