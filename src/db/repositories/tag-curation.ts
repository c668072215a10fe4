import { type Kysely, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import { hashtagDisplayName, normalizeHashtag } from "../../lib/text/hashtag-name.ts";
import type { DialectName } from "../database.ts";
import type { DB } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";
import { selectShaped } from "./query-shapes.ts";
import { homeFilterAllows } from "./relationships.ts";

export interface TagRef {
  id: string;
  name: string;
  displayName: string;
}

/** A followed or featured tag: the row's id (the page cursor) and the tag. */
export interface TagLinkRow {
  id: string;
  tag: TagRef;
}

/** Uses of a tag in one account's live public and unlisted posts. */
export interface TagUsage {
  statusesCount: number;
  lastStatusAt: string | null;
}

/** The account's posts that count for a featured tag, as Mastodon's: live, public or unlisted. */
const countedStatus = sql<boolean>`(s.deleted_at IS NULL AND s.visibility IN ('public', 'unlisted'))`;

/** All SQL on `tag_follows` and `featured_tags`, and the fan-out of posts to hashtag followers. */
export class TagCurationRepository {
  readonly #db: Kysely<DB>;
  readonly #dialect: DialectName;
  constructor(db: Kysely<DB>, dialect: DialectName) {
    this.#db = db;
    this.#dialect = dialect;
  }

  /** The tag of this name (normalised), creating it with `written` as its display name when missing. */
  async findOrCreateTag(written: string, newId: () => string, now: string): Promise<TagRef> {
    const name = normalizeHashtag(written);
    const displayName = hashtagDisplayName(written);
    if (name === "") throw new Error(`${JSON.stringify(written)} is no hashtag`);
    const find = () =>
      this.#db
        .selectFrom("tags")
        .select(["id", "name", "display_name"])
        .where(sql<string>`lower(name)`, "=", name)
        .executeTakeFirst();
    let row = await find();
    if (!row) {
      // Two requests may create it at once: the unique index keeps one, and both read it back.
      await sql`INSERT INTO tags (id, name, display_name, created_at, updated_at)
        VALUES (${newId()}, ${name}, ${displayName}, ${now}, ${now}) ON CONFLICT DO NOTHING`.execute(this.#db);
      row = await find();
    }
    if (!row) throw new Error(`tag ${name} could not be created`);
    return { id: String(row.id), name: row.name, displayName: row.display_name };
  }

  // Followed tags

  /** Records the follow; nothing happens when it exists. */
  async follow(row: { id: string; account_id: string; tag_id: string; created_at: string }): Promise<void> {
    await this.#db
      .insertInto("tag_follows")
      .values(row)
      .onConflict((oc) => oc.columns(["account_id", "tag_id"]).doNothing())
      .execute();
  }

  async unfollow(accountId: string, tagId: string): Promise<void> {
    await this.#db.deleteFrom("tag_follows").where("account_id", "=", accountId).where("tag_id", "=", tagId).execute();
  }

  /** One page of the tags `accountId` follows, by follow id, newest first. */
  async followedPage(accountId: string, window: IdWindow): Promise<TagLinkRow[]> {
    let q = this.#db
      .selectFrom("tag_follows")
      .innerJoin("tags", "tags.id", "tag_follows.tag_id")
      .select(["tag_follows.id", "tags.id as tag_id", "tags.name", "tags.display_name"])
      .where("tag_follows.account_id", "=", accountId);
    q = applyWindow(q, "tag_follows.id", window);
    const rows = await q.orderBy("tag_follows.id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(
      rows.map((r) => ({
        id: String(r.id),
        tag: { id: String(r.tag_id), name: r.name, displayName: r.display_name },
      })),
    );
  }

  /** Which of `tagIds` the account follows and which it features, in one query each. */
  async tagStates(
    accountId: string,
    tagIds: readonly string[],
  ): Promise<{ following: Set<string>; featuring: Set<string> }> {
    if (tagIds.length === 0) return { following: new Set(), featuring: new Set() };
    const [followed, featured] = await Promise.all([
      this.#db
        .selectFrom("tag_follows")
        .select("tag_id")
        .where("account_id", "=", accountId)
        .where("tag_id", "in", tagIds)
        .execute(),
      this.#db
        .selectFrom("featured_tags")
        .select("tag_id")
        .where("account_id", "=", accountId)
        .where("tag_id", "in", tagIds)
        .execute(),
    ]);
    return {
      following: new Set(followed.map((r) => String(r.tag_id))),
      featuring: new Set(featured.map((r) => String(r.tag_id))),
    };
  }

  /**
   * Puts a new public post into the home feeds of the local accounts following one of its
   * hashtags (Mastodon's hashtag fan-out): not a boost, not by a silenced author, not into its
   * author's feed (the home fan-out does that), and, as the home fan-out, not into the feed of an
   * account that blocks or mutes the author or an account the post mentions, nor of one the
   * author blocks. Running it twice changes nothing. Answers how many entries were added.
   */
  async fanOutToTagFollowers(statusId: string, db: Kysely<DB> = this.#db): Promise<number> {
    const now = new Date().toISOString();
    const r = await sql`INSERT INTO feeds (account_id, status_id, reblog_of_id)
      SELECT DISTINCT tf.account_id, s.id, s.reblog_of_id
      FROM statuses s
      JOIN accounts au ON au.id = s.account_id
      JOIN statuses_tags st ON st.status_id = s.id
      JOIN tag_follows tf ON tf.tag_id = st.tag_id
      JOIN accounts fa ON fa.id = tf.account_id
      LEFT JOIN statuses o ON o.id = s.reblog_of_id
      WHERE s.id = ${statusId} AND s.deleted_at IS NULL AND s.visibility = 'public'
        AND s.reblog_of_id IS NULL AND au.silenced_at IS NULL
        AND fa.domain IS NULL AND tf.account_id <> s.account_id
        AND ${homeFilterAllows(sql.ref("tf.account_id"), now)}
      ON CONFLICT (account_id, status_id) DO NOTHING`.execute(db);
    return Number(r.numAffectedRows ?? 0);
  }

  /**
   * Uses per tag and day (`YYYY-MM-DD`, UTC) since `sinceIso`: live public statuses and their
   * distinct authors, for the Tag entity's history; `sinceId` bounds the statuses by id (the time).
   */
  async tagUses(
    tagIds: readonly string[],
    sinceIso: string,
    sinceId: string,
  ): Promise<Map<string, Map<string, { uses: number; accounts: number }>>> {
    const out = new Map<string, Map<string, { uses: number; accounts: number }>>();
    if (tagIds.length === 0) return out;
    const rows = await this.#db
      .selectFrom("statuses_tags")
      .innerJoin("statuses", "statuses.id", "statuses_tags.status_id")
      .select([
        "statuses_tags.tag_id",
        sql<string>`substr(statuses.created_at, 1, 10)`.as("day"),
        (eb) => eb.fn.countAll().as("uses"),
        sql<string | number>`count(distinct statuses.account_id)`.as("accounts"),
      ])
      .where("statuses_tags.tag_id", "in", tagIds)
      .where("statuses_tags.status_id", ">=", sinceId)
      .where("statuses.created_at", ">=", sinceIso)
      .where("statuses.deleted_at", "is", null)
      // Public posts only, as Mastodon records a use (unlisted posts stay out of discovery).
      .where("statuses.visibility", "=", "public")
      .groupBy(["statuses_tags.tag_id", sql`substr(statuses.created_at, 1, 10)`])
      .execute();
    for (const r of rows) {
      const id = String(r.tag_id);
      const days = out.get(id) ?? new Map();
      days.set(r.day, { uses: Number(r.uses), accounts: Number(r.accounts) });
      out.set(id, days);
    }
    return out;
  }

  // Featured tags

  /** The account's featured tags, oldest first (Mastodon's order). */
  async featured(accountId: string): Promise<TagLinkRow[]> {
    const rows = await this.#db
      .selectFrom("featured_tags")
      .innerJoin("tags", "tags.id", "featured_tags.tag_id")
      .select(["featured_tags.id", "tags.id as tag_id", "tags.name", "tags.display_name"])
      .where("featured_tags.account_id", "=", accountId)
      .orderBy("featured_tags.id", "asc")
      .execute();
    return rows.map((r) => ({
      id: String(r.id),
      tag: { id: String(r.tag_id), name: r.name, displayName: r.display_name },
    }));
  }

  /** One featured tag of the account, by its id. */
  async featuredById(accountId: string, id: string): Promise<TagLinkRow | undefined> {
    const r = await this.#db
      .selectFrom("featured_tags")
      .innerJoin("tags", "tags.id", "featured_tags.tag_id")
      .select(["featured_tags.id", "tags.id as tag_id", "tags.name", "tags.display_name"])
      .where("featured_tags.account_id", "=", accountId)
      .where("featured_tags.id", "=", id)
      .executeTakeFirst();
    return r && { id: String(r.id), tag: { id: String(r.tag_id), name: r.name, displayName: r.display_name } };
  }

  /**
   * Features a tag unless the account has `max` already, in one transaction (the count is taken
   * with the account's row locked on PostgreSQL). Answers the featured tag's id (the existing one
   * when it was featured already), or undefined when the limit is reached.
   */
  async feature(
    row: { id: string; account_id: string; tag_id: string; created_at: string },
    max: number,
  ): Promise<string | undefined> {
    return this.#db.transaction().execute(async (trx) => {
      let lock = trx.selectFrom("accounts").select("id").where("id", "=", row.account_id);
      if (this.#dialect === "postgres") lock = lock.forUpdate();
      await lock.execute();
      const existing = await trx
        .selectFrom("featured_tags")
        .select("id")
        .where("account_id", "=", row.account_id)
        .where("tag_id", "=", row.tag_id)
        .executeTakeFirst();
      if (existing) return String(existing.id);
      const n = await trx
        .selectFrom("featured_tags")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("account_id", "=", row.account_id)
        .executeTakeFirstOrThrow();
      if (Number(n.n) >= max) return undefined;
      const usage = (await this.usage(row.account_id, [row.tag_id], trx)).get(row.tag_id);
      await trx
        .insertInto("featured_tags")
        .values({
          ...row,
          statuses_count: usage?.statusesCount ?? 0,
          last_status_at: usage?.lastStatusAt ?? null,
          updated_at: row.created_at,
        })
        .execute();
      return row.id;
    });
  }

  async unfeatureTag(accountId: string, tagId: string): Promise<void> {
    await this.#db
      .deleteFrom("featured_tags")
      .where("account_id", "=", accountId)
      .where("tag_id", "=", tagId)
      .execute();
  }

  async unfeatureById(accountId: string, id: string): Promise<boolean> {
    const r = await this.#db
      .deleteFrom("featured_tags")
      .where("account_id", "=", accountId)
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** How often the account's live public and unlisted posts use each of `tagIds`, and when last. */
  async usage(accountId: string, tagIds: readonly string[], db: Kysely<DB> = this.#db): Promise<Map<string, TagUsage>> {
    if (tagIds.length === 0) return new Map();
    const rows = await db
      .selectFrom("statuses as s")
      .innerJoin("statuses_tags as st", "st.status_id", "s.id")
      .select(["st.tag_id", (eb) => eb.fn.countAll().as("n"), (eb) => eb.fn.max("s.created_at").as("last")])
      .where("s.account_id", "=", accountId)
      .where("st.tag_id", "in", tagIds)
      .where(countedStatus)
      .groupBy("st.tag_id")
      .execute();
    return new Map(
      rows.map((r) => [
        String(r.tag_id),
        { statusesCount: Number(r.n), lastStatusAt: (r.last as string | null) ?? null },
      ]),
    );
  }

  /**
   * Stores the current usage counts of the account's featured tags among `tagIds` (after a post
   * using them), so the stored columns follow the posts as Mastodon's do.
   */
  async refreshFeatured(accountId: string, tagIds: readonly string[], now: string): Promise<void> {
    if (tagIds.length === 0) return;
    const featured = await this.#db
      .selectFrom("featured_tags")
      .select("tag_id")
      .where("account_id", "=", accountId)
      .where("tag_id", "in", tagIds)
      .execute();
    const ids = featured.map((r) => String(r.tag_id));
    const usage = await this.usage(accountId, ids);
    for (const tagId of ids) {
      const u = usage.get(tagId);
      await this.#db
        .updateTable("featured_tags")
        .set({ statuses_count: u?.statusesCount ?? 0, last_status_at: u?.lastStatusAt ?? null, updated_at: now })
        .where("account_id", "=", accountId)
        .where("tag_id", "=", tagId)
        .execute();
    }
  }

  /** The ids of a status's hashtags (the fan-out's hashtag part). */
  async statusTagIds(statusId: string): Promise<string[]> {
    const rows = await selectShaped(this.#db, "tagCuration.statusTagIds", [statusId], () =>
      this.#db.selectFrom("statuses_tags").select("tag_id").where("status_id", "=", statusId),
    );
    return rows.map((r) => String(r.tag_id));
  }

  /**
   * Mastodon's featured-tag suggestions: the tags of the account's latest 1000 live posts that it
   * does not feature yet, most used first; tags moderators unlisted are not suggested.
   */
  async suggestions(accountId: string, limit: number): Promise<TagRef[]> {
    const rows = await sql<{ id: string; name: string; display_name: string; n: string | number }>`
      SELECT t.id, t.name, t.display_name, COUNT(*) AS n
      FROM (SELECT s.id FROM statuses s WHERE s.account_id = ${accountId} AND s.deleted_at IS NULL
          AND s.reblog_of_id IS NULL ORDER BY s.id DESC LIMIT 1000) recent
      JOIN statuses_tags st ON st.status_id = recent.id
      JOIN tags t ON t.id = st.tag_id
      WHERE NOT EXISTS (SELECT 1 FROM featured_tags f WHERE f.account_id = ${accountId} AND f.tag_id = t.id)
        AND (t.listable IS NULL OR t.listable = ${true})
      GROUP BY t.id, t.name, t.display_name
      ORDER BY n DESC, t.name ASC
      LIMIT ${limit}`.execute(this.#db);
    return rows.rows.map((r) => ({ id: String(r.id), name: r.name, displayName: r.display_name }));
  }
}
