import { type Kysely, type RawBuilder, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { DB } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";
import { broadcastAuthorCondition, notBlockedOrMutedCondition } from "./status-visibility.ts";
import { type Status, toStatus } from "./statuses.ts";

/**
 * On `accounts <alias>`: an account whose activity counts towards trends and whose posts may
 * trend (Mastodon leaves out bots, and silenced, suspended and memorial accounts).
 */
export function trendingAccount(alias: string): RawBuilder<boolean> {
  const c = (col: string) => sql.ref(`${alias}.${col}`);
  return sql<boolean>`(${c("actor_type")} NOT IN ('Service', 'Application') AND ${c("silenced_at")} IS NULL
    AND ${c("suspended_at")} IS NULL AND ${c("memorial")} = ${false})`;
}

/** One account's latest use of an item (tag or link) in the recent window. */
export interface RecentUse {
  itemId: string;
  accountId: string;
  /** The account's server; null: this one. */
  domain: string | null;
  /** The newest status id of that use (its time is in the id). */
  lastId: string;
}

/** What scoring and review read of a link's card. */
export interface CardInfo {
  url: string;
  language: string | null;
  /** The moderators' switch on the link; null: not reviewed. */
  trendable: boolean | null;
}

/** An account that used an item (tag or link). */
export interface ItemAccount {
  itemId: string;
  accountId: string;
}

/** A recent post with its engagement by distinct eligible accounts. */
export interface StatusEngagement {
  statusId: string;
  accountId: string;
  language: string | null;
  interactions: number;
}

export interface TagTrendRow {
  tag_id: string;
  score: number;
  rank: number;
}

export interface StatusTrendRow {
  status_id: string;
  account_id: string;
  language: string | null;
  score: number;
  rank: number;
}

export interface LinkTrendRow {
  preview_card_id: string;
  language: string | null;
  score: number;
  rank: number;
}

const BATCH = 200;

function chunks<T>(rows: readonly T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** On a language column: one of `languages`, or none (an item without a language is in any). */
function inLanguages(column: string, languages: readonly string[]): RawBuilder<boolean> {
  const col = sql.ref(column);
  if (languages.length === 0) return sql<boolean>`${col} IS NULL`;
  return sql<boolean>`(${col} IS NULL OR ${col} IN (${sql.join([...languages])}))`;
}

/** On `statuses <alias>`: a public post, not a boost, not deleted. */
function publicPost(alias: string): RawBuilder<boolean> {
  const c = (col: string) => sql.ref(`${alias}.${col}`);
  return sql<boolean>`(${c("visibility")} = 'public' AND ${c("reblog_of_id")} IS NULL AND ${c("deleted_at")} IS NULL)`;
}

/**
 * All SQL of trends (migration 0040): the engagement the scoring reads (aggregates bounded by id
 * windows, which are time windows: ids are Snowflake-style), the scored lists it writes, the
 * `allowed` switch, and the public lists.
 *
 * The scoring reads join with CROSS JOIN: SQLite then keeps the written order and starts from the
 * id window (without statistics it preferred walking every public status through the public
 * timeline's index: seconds instead of milliseconds); PostgreSQL plans them as inner joins.
 */
export class TrendsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  // Reads for scoring

  /** Each (tag, account) pair of public, usable hashtag uses by eligible accounts with ids in [fromId, toId). */
  async recentTagUses(fromId: string, toId: string): Promise<RecentUse[]> {
    const r = await sql<{ item_id: string; account_id: string; domain: string | null; last_id: string }>`
      SELECT st.tag_id AS item_id, s.account_id, a.domain, MAX(s.id) AS last_id
      FROM statuses_tags st
      CROSS JOIN statuses s CROSS JOIN accounts a CROSS JOIN tags t
      WHERE s.id = st.status_id AND a.id = s.account_id AND t.id = st.tag_id
        AND st.status_id >= ${fromId} AND st.status_id < ${toId}
        AND ${publicPost("s")} AND ${trendingAccount("a")} AND (t.usable IS NULL OR t.usable = ${true})
      GROUP BY st.tag_id, s.account_id, a.domain`.execute(this.#db);
    return r.rows.map((x) => ({
      itemId: String(x.item_id),
      accountId: String(x.account_id),
      domain: x.domain,
      lastId: String(x.last_id),
    }));
  }

  /** The eligible accounts using each of the tags `ids` in public posts with ids in [fromId, toId), as pairs. */
  async tagAccounts(ids: readonly string[], fromId: string, toId: string): Promise<ItemAccount[]> {
    const out: ItemAccount[] = [];
    if (ids.length > 0) {
      const r = await sql<{ item_id: string; account_id: string }>`
        SELECT DISTINCT st.tag_id AS item_id, s.account_id
        FROM statuses_tags st CROSS JOIN statuses s CROSS JOIN accounts a
        WHERE s.id = st.status_id AND a.id = s.account_id AND st.tag_id IN (${sql.join(ids)})
          AND st.status_id >= ${fromId} AND st.status_id < ${toId}
          AND ${publicPost("s")} AND ${trendingAccount("a")}`.execute(this.#db);
      for (const x of r.rows) out.push({ itemId: String(x.item_id), accountId: String(x.account_id) });
    }
    return out;
  }

  /** Each (card, account) pair of links shared by public posts of eligible accounts with ids in [fromId, toId). */
  async recentLinkUses(fromId: string, toId: string): Promise<RecentUse[]> {
    const r = await sql<{ item_id: string; account_id: string; domain: string | null; last_id: string }>`
      SELECT pcs.preview_card_id AS item_id, s.account_id, a.domain, MAX(s.id) AS last_id
      FROM preview_cards_statuses pcs CROSS JOIN statuses s CROSS JOIN accounts a
      WHERE s.id = pcs.status_id AND a.id = s.account_id AND pcs.status_id >= ${fromId} AND pcs.status_id < ${toId}
        AND ${publicPost("s")} AND ${trendingAccount("a")}
      GROUP BY pcs.preview_card_id, s.account_id, a.domain`.execute(this.#db);
    return r.rows.map((x) => ({
      itemId: String(x.item_id),
      accountId: String(x.account_id),
      domain: x.domain,
      lastId: String(x.last_id),
    }));
  }

  /** The eligible accounts sharing each of the cards `ids` in public posts with ids in [fromId, toId), as pairs. */
  async linkAccounts(ids: readonly string[], fromId: string, toId: string): Promise<ItemAccount[]> {
    const out: ItemAccount[] = [];
    if (ids.length > 0) {
      const r = await sql<{ item_id: string; account_id: string }>`
        SELECT DISTINCT pcs.preview_card_id AS item_id, s.account_id
        FROM preview_cards_statuses pcs CROSS JOIN statuses s CROSS JOIN accounts a
        WHERE s.id = pcs.status_id AND a.id = s.account_id AND pcs.preview_card_id IN (${sql.join(ids)})
          AND pcs.status_id >= ${fromId} AND pcs.status_id < ${toId}
          AND ${publicPost("s")} AND ${trendingAccount("a")}`.execute(this.#db);
      for (const x of r.rows) out.push({ itemId: String(x.item_id), accountId: String(x.account_id) });
    }
    return out;
  }

  /** The URLs, languages (their page's) and switches of cards. */
  async cardsInfo(cardIds: readonly string[]): Promise<Map<string, CardInfo>> {
    const out = new Map<string, CardInfo>();
    for (const ids of chunks(cardIds)) {
      const rows = await this.#db
        .selectFrom("preview_cards")
        .select(["id", "url", "language", "trendable"])
        .where("id", "in", ids)
        .execute();
      for (const r of rows) {
        out.set(String(r.id), {
          url: r.url,
          language: r.language,
          trendable: r.trendable === null ? null : Boolean(r.trendable),
        });
      }
    }
    return out;
  }

  /**
   * Posts with ids in [fromId, toId) that may trend (public, not replies or boosts, not deleted,
   * without content warning or sensitive flag, by an eligible and discoverable account) with at
   * least `minInteractions` favourites and boosts (one per booster) by eligible accounts other
   * than the author.
   */
  async statusEngagement(fromId: string, toId: string, minInteractions: number): Promise<StatusEngagement[]> {
    const r = await sql<{ status_id: string; account_id: string; language: string | null; interactions: number }>`
      SELECT s.id AS status_id, s.account_id, s.language, i.n AS interactions
      FROM (
        SELECT x.status_id, COUNT(*) AS n FROM (
          SELECT f.status_id, f.account_id FROM favourites f WHERE f.status_id >= ${fromId} AND f.status_id < ${toId}
          UNION ALL
          SELECT DISTINCT b.reblog_of_id AS status_id, b.account_id FROM statuses b
          WHERE b.reblog_of_id >= ${fromId} AND b.reblog_of_id < ${toId} AND b.deleted_at IS NULL
        ) x
        CROSS JOIN accounts xa CROSS JOIN statuses xs
        WHERE xa.id = x.account_id AND ${trendingAccount("xa")} AND xs.id = x.status_id AND xs.account_id <> x.account_id
        GROUP BY x.status_id
        HAVING COUNT(*) >= ${minInteractions}
      ) i
      CROSS JOIN statuses s CROSS JOIN accounts a
      WHERE s.id = i.status_id AND a.id = s.account_id AND ${publicPost("s")} AND s.in_reply_to_id IS NULL
        AND s.spoiler_text = '' AND s.sensitive = ${false} AND ${trendingAccount("a")} AND a.discoverable = ${true}`.execute(
      this.#db,
    );
    return r.rows.map((x) => ({
      statusId: String(x.status_id),
      accountId: String(x.account_id),
      language: x.language,
      interactions: Number(x.interactions),
    }));
  }

  // Writes

  /**
   * Replaces the scored hashtags, with `allowed` set from the switches (`review`: the review
   * setting), in one transaction: readers never see the list half written or not yet allowed.
   */
  async replaceTags(rows: readonly TagTrendRow[], now: string, review: boolean): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await trx.deleteFrom("trend_tags").execute();
      for (const batch of chunks(rows)) {
        await trx
          .insertInto("trend_tags")
          .values(batch.map((r) => ({ ...r, allowed: false, updated_at: now })))
          .execute();
      }
      await this.updateTagsAllowed(review, trx);
    });
  }

  /** As `replaceTags`, for posts. */
  async replaceStatuses(rows: readonly StatusTrendRow[], now: string, review: boolean): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await trx.deleteFrom("trend_statuses").execute();
      for (const batch of chunks(rows)) {
        await trx
          .insertInto("trend_statuses")
          .values(batch.map((r) => ({ ...r, allowed: false, updated_at: now })))
          .execute();
      }
      await this.updateStatusesAllowed(review, trx);
    });
  }

  /** Replaces the scored links (each row says whether it is allowed), in one transaction. */
  async replaceLinks(rows: readonly (LinkTrendRow & { allowed: boolean })[], now: string): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await trx.deleteFrom("trend_links").execute();
      for (const batch of chunks(rows)) {
        await trx
          .insertInto("trend_links")
          .values(batch.map((r) => ({ ...r, updated_at: now })))
          .execute();
      }
    });
  }

  /** Empties every list (trends switched off). */
  async clearAll(): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await trx.deleteFrom("trend_tags").execute();
      await trx.deleteFrom("trend_statuses").execute();
      await trx.deleteFrom("trend_links").execute();
    });
  }

  /** Creates the publisher rows of `domains` that do not exist yet. */
  async ensureProviders(domains: readonly string[], newId: () => string, now: string): Promise<void> {
    for (const batch of chunks([...new Set(domains)])) {
      await this.#db
        .insertInto("preview_card_providers")
        .values(batch.map((domain) => ({ id: newId(), domain, created_at: now, updated_at: now })))
        .onConflict((oc) => oc.column("domain").doNothing())
        .execute();
    }
  }

  /**
   * Sets `allowed` on every scored hashtag from its switch: with review, only approved ones
   * (`trendable` true); without, all but rejected ones.
   */
  async updateTagsAllowed(review: boolean, db: Kysely<DB> = this.#db): Promise<void> {
    const fallback = !review;
    await sql`UPDATE trend_tags SET allowed = COALESCE((SELECT t.trendable FROM tags t WHERE t.id = trend_tags.tag_id), ${fallback}) = ${true}
      AND COALESCE((SELECT t.usable FROM tags t WHERE t.id = trend_tags.tag_id), ${true}) = ${true}`.execute(db);
  }

  /** As `updateTagsAllowed`, from `statuses.trendable`. */
  async updateStatusesAllowed(review: boolean, db: Kysely<DB> = this.#db): Promise<void> {
    const fallback = !review;
    await sql`UPDATE trend_statuses SET allowed =
      COALESCE((SELECT s.trendable FROM statuses s WHERE s.id = trend_statuses.status_id), ${fallback}) = ${true}`.execute(
      db,
    );
  }

  /** The scored links with their own switch and their URL (the publisher is found by its host name). */
  async scoredLinks(): Promise<{ cardId: string; url: string; trendable: boolean | null }[]> {
    const rows = await this.#db
      .selectFrom("trend_links")
      .innerJoin("preview_cards", "preview_cards.id", "trend_links.preview_card_id")
      .select(["preview_cards.id", "preview_cards.url", "preview_cards.trendable"])
      .execute();
    return rows.map((r) => ({
      cardId: String(r.id),
      url: r.url,
      trendable: r.trendable === null ? null : Boolean(r.trendable),
    }));
  }

  /** The switches of the publishers of `domains` (absent: no row). */
  async providerSwitches(domains: readonly string[]): Promise<Map<string, boolean | null>> {
    const out = new Map<string, boolean | null>();
    for (const batch of chunks([...new Set(domains)])) {
      const rows = await this.#db
        .selectFrom("preview_card_providers")
        .select(["domain", "trendable"])
        .where("domain", "in", batch)
        .execute();
      for (const r of rows) out.set(r.domain, r.trendable === null ? null : Boolean(r.trendable));
    }
    return out;
  }

  /** Sets `allowed` on the scored links: true for `allowedIds`, false for the others. */
  async setLinksAllowed(allowedIds: readonly string[]): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await trx.updateTable("trend_links").set({ allowed: false }).execute();
      for (const batch of chunks(allowedIds)) {
        await trx.updateTable("trend_links").set({ allowed: true }).where("preview_card_id", "in", batch).execute();
      }
    });
  }

  // Public lists

  /** Allowed trending hashtags by rank. */
  async allowedTags(limit: number, offset: number): Promise<{ id: string; name: string; displayName: string }[]> {
    const rows = await this.#db
      .selectFrom("trend_tags")
      .innerJoin("tags", "tags.id", "trend_tags.tag_id")
      .select(["tags.id", "tags.name", "tags.display_name"])
      .where("trend_tags.allowed", "=", true)
      .orderBy("trend_tags.rank")
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({ id: String(r.id), name: r.name, displayName: r.display_name }));
  }

  /**
   * Allowed trending posts by rank, in `languages` or without a language; for a signed-in reader,
   * not by accounts they block, mute or are blocked by, nor of domains they block.
   */
  async allowedStatusIds(
    languages: readonly string[],
    viewerId: string | undefined,
    limit: number,
    offset: number,
  ): Promise<string[]> {
    let q = this.#db
      .selectFrom("trend_statuses")
      .innerJoin("statuses", "statuses.id", "trend_statuses.status_id")
      .select("trend_statuses.status_id")
      .where("trend_statuses.allowed", "=", true)
      .where(inLanguages("trend_statuses.language", languages))
      .orderBy("trend_statuses.rank")
      .limit(limit)
      .offset(offset);
    if (viewerId !== undefined)
      q = q.where(notBlockedOrMutedCondition({ accountId: viewerId }, new Date().toISOString()));
    return (await q.execute()).map((r) => String(r.status_id));
  }

  /** Allowed trending links by rank (card ids), in `languages` or without a language. */
  async allowedLinkIds(languages: readonly string[], limit: number, offset: number): Promise<string[]> {
    const rows = await this.#db
      .selectFrom("trend_links")
      .select("preview_card_id")
      .where("allowed", "=", true)
      .where(inLanguages("language", languages))
      .orderBy("rank")
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => String(r.preview_card_id));
  }

  /** The card of `url` when it is trending and allowed. */
  async allowedLinkByUrl(url: string): Promise<string | undefined> {
    const r = await this.#db
      .selectFrom("trend_links")
      .innerJoin("preview_cards", "preview_cards.id", "trend_links.preview_card_id")
      .select("preview_cards.id")
      .where("preview_cards.url", "=", url)
      .where("trend_links.allowed", "=", true)
      .executeTakeFirst();
    return r ? String(r.id) : undefined;
  }

  /**
   * Per card and UTC day since `sinceIso` (ids from `sinceId`): the public posts sharing it and
   * their distinct accounts (a link's history).
   */
  async linkUses(
    cardIds: readonly string[],
    sinceIso: string,
    sinceId: string,
  ): Promise<Map<string, Map<string, { uses: number; accounts: number }>>> {
    const out = new Map<string, Map<string, { uses: number; accounts: number }>>();
    if (cardIds.length === 0) return out;
    const rows = await this.#db
      .selectFrom("preview_cards_statuses")
      .innerJoin("statuses", "statuses.id", "preview_cards_statuses.status_id")
      .select([
        "preview_cards_statuses.preview_card_id",
        sql<string>`substr(statuses.created_at, 1, 10)`.as("day"),
        (eb) => eb.fn.countAll().as("uses"),
        sql<string | number>`count(distinct statuses.account_id)`.as("accounts"),
      ])
      .where("preview_cards_statuses.preview_card_id", "in", cardIds)
      .where("preview_cards_statuses.status_id", ">=", sinceId)
      .where("statuses.created_at", ">=", sinceIso)
      .where("statuses.deleted_at", "is", null)
      .where("statuses.reblog_of_id", "is", null)
      .where("statuses.visibility", "=", "public")
      .groupBy(["preview_cards_statuses.preview_card_id", sql`substr(statuses.created_at, 1, 10)`])
      .execute();
    for (const r of rows) {
      const id = String(r.preview_card_id);
      const days = out.get(id) ?? new Map();
      days.set(r.day, { uses: Number(r.uses), accounts: Number(r.accounts) });
      out.set(id, days);
    }
    return out;
  }

  /**
   * Mastodon 4.3's link timeline: public posts (no boosts) sharing card `cardId`, by authors
   * neither suspended nor silenced, newest first in the id window; a signed-in reader's blocks
   * and mutes leave posts out.
   */
  async linkTimelinePage(cardId: string, viewerId: string | undefined, window: IdWindow): Promise<Status[]> {
    let q = this.#db
      .selectFrom("statuses")
      .innerJoin("preview_cards_statuses", "preview_cards_statuses.status_id", "statuses.id")
      .selectAll("statuses")
      .where("preview_cards_statuses.preview_card_id", "=", cardId)
      .where("statuses.visibility", "=", "public")
      .where("statuses.deleted_at", "is", null)
      .where("statuses.reblog_of_id", "is", null)
      .where(broadcastAuthorCondition);
    if (viewerId !== undefined)
      q = q.where(notBlockedOrMutedCondition({ accountId: viewerId }, new Date().toISOString()));
    q = applyWindow(q, "statuses.id", window);
    const rows = await q.orderBy("statuses.id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(toStatus));
  }
}
