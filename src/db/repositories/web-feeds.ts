import { type Kysely, sql } from "kysely";
import { normalizeHashtag } from "../../lib/text/hashtag-name.ts";
import type { DB } from "../schema.ts";
import { broadcastAuthorCondition, hasMediaCondition } from "./status-visibility.ts";

/** A hashtag as the feeds need it. */
export interface FeedTag {
  id: string;
  name: string;
  displayName: string;
  /** Moderators' switch: false when the tag may not be used (its pages and feeds are 404). */
  usable: boolean;
}

/**
 * The reads of the RSS feeds (web/feeds): ids only, newest first, so the statuses themselves come
 * from the kept renders (services/statuses/kept.ts) and a warm feed costs one query for its page.
 */
export class WebFeedsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** The tag with this name (case-insensitively, normalised), if known. */
  async tagByName(name: string): Promise<FeedTag | undefined> {
    const normalized = normalizeHashtag(name);
    if (normalized === "") return undefined;
    const row = await this.#db
      .selectFrom("tags")
      .select(["id", "name", "display_name", "usable"])
      .where(sql<string>`lower(name)`, "=", normalized)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: String(row.id),
      name: row.name,
      displayName: row.display_name,
      usable: row.usable === null || Boolean(row.usable),
    };
  }

  /**
   * An account's latest live public posts, without boosts; without replies to others unless
   * `withReplies`; only those with media when `onlyMedia`; only those with the tag `tagId`.
   */
  async publicAccountStatusIds(
    accountId: string,
    opts: { tagId?: string; withReplies?: boolean; onlyMedia?: boolean },
    limit: number,
  ): Promise<string[]> {
    let q = this.#db
      .selectFrom("statuses")
      .select("statuses.id")
      .where("statuses.account_id", "=", accountId)
      .where("statuses.visibility", "=", "public")
      .where("statuses.deleted_at", "is", null)
      .where("statuses.reblog_of_id", "is", null);
    if (!opts.withReplies) {
      q = q.where((eb) =>
        eb.or([eb("statuses.in_reply_to_id", "is", null), eb("statuses.in_reply_to_account_id", "=", accountId)]),
      );
    }
    if (opts.onlyMedia) q = q.where(hasMediaCondition);
    if (opts.tagId !== undefined) {
      q = q.where(
        sql<boolean>`EXISTS (SELECT 1 FROM statuses_tags st WHERE st.status_id = statuses.id AND st.tag_id = ${opts.tagId})`,
      );
    }
    const rows = await q.orderBy("statuses.id", "desc").limit(limit).execute();
    return rows.map((r) => String(r.id));
  }

  /**
   * The latest live public posts with the tag, local and remote (or local only), by accounts
   * neither suspended nor silenced: the hashtag timeline as an anonymous reader gets it
   * (status-pages.ts `publicTimelinePage` with tags). Never unlisted, private or direct posts.
   */
  async publicTagStatusIds(tagId: string, opts: { local: boolean }, limit: number): Promise<string[]> {
    // CROSS JOIN keeps SQLite walking the tag's index newest first (and stopping at `limit`):
    // with an inner join it would rather walk every public status and sort (some 30 ms on the
    // benchmark's seed against 0.2). PostgreSQL plans both alike.
    let q = this.#db
      .selectFrom("statuses_tags")
      .crossJoin("statuses")
      .select("statuses.id")
      .whereRef("statuses.id", "=", "statuses_tags.status_id")
      .where("statuses_tags.tag_id", "=", tagId)
      .where("statuses.visibility", "=", "public")
      .where("statuses.deleted_at", "is", null)
      .where(broadcastAuthorCondition);
    if (opts.local) q = q.where(sql<boolean>`statuses.local = TRUE`);
    const rows = await q.orderBy("statuses_tags.status_id", "desc").limit(limit).execute();
    return rows.map((r) => String(r.id));
  }
}
