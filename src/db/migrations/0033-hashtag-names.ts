import { type Kysely, sql } from "kysely";
import { normalizeHashtag } from "../../lib/text/hashtag-name.ts";

const PAGE = 500;

/** Tables that point at a tag, with the column that makes a row unique beside `tag_id`. */
const LINKS = [
  { table: "statuses_tags", owner: "status_id" },
  { table: "tag_follows", owner: "account_id" },
  { table: "featured_tags", owner: "account_id" },
] as const;

/** Moves everything that points at tag `from` to tag `to` (dropping what `to` has already), then drops `from`. */
async function mergeTag(db: Kysely<unknown>, from: string, to: string): Promise<void> {
  for (const { table, owner } of LINKS) {
    const t = sql.table(table);
    const o = sql.ref(`${table}.${owner}`);
    await sql`UPDATE ${t} SET tag_id = ${to} WHERE tag_id = ${from}
      AND NOT EXISTS (SELECT 1 FROM ${t} AS other WHERE other.tag_id = ${to} AND other.${sql.ref(owner)} = ${o})`.execute(
      db,
    );
    await sql`DELETE FROM ${t} WHERE tag_id = ${from}`.execute(db);
  }
  await sql`DELETE FROM tags WHERE id = ${from}`.execute(db);
}

/**
 * Tags were stored by their lower-cased name, so `#café`, `#ｃａｆｅ` and `#cafe` with a combining
 * accent were different tags. Each tag is now named by Mastodon's normalised name
 * (lib/text/hashtag-name.ts); tags that normalise to one name are merged into the one that
 * already has it, or else the first met (by id), which keeps its display name. Its posts,
 * followers and featurings move with it. Run in JavaScript, page by page, because neither
 * database can normalise as Mastodon does; only tags whose name changes cost a query.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  let after = "0";
  for (;;) {
    const page = await sql<{ id: string | number; name: string }>`SELECT id, name FROM tags
      WHERE id > ${after} ORDER BY id LIMIT ${PAGE}`.execute(db);
    if (page.rows.length === 0) return;
    for (const row of page.rows) {
      const id = String(row.id);
      const name = normalizeHashtag(row.name);
      // A name with nothing valid in it keeps its row: it can never be matched, but posts may point at it.
      if (name === row.name || name === "") continue;
      const holder = await sql<{ id: string | number }>`SELECT id FROM tags
        WHERE lower(name) = ${name} AND id <> ${id}`.execute(db);
      const target = holder.rows[0];
      if (target) await mergeTag(db, id, String(target.id));
      else await sql`UPDATE tags SET name = ${name} WHERE id = ${id}`.execute(db);
    }
    after = String(page.rows[page.rows.length - 1].id);
  }
}

export async function down(): Promise<void> {
  // Merged tags cannot be told apart again; the normalised names match as well as the old ones.
}
