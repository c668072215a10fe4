import { type Kysely, type Selectable, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { PreviewCardProvidersTable } from "../schema/discovery.ts";
import type { DB } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";

const nullableBool = (v: unknown): boolean | null => (v === null || v === undefined ? null : Boolean(v));

/** A candidate in the scores' order, with the moderators' decision on it (null: not reviewed). */
export interface TrendCandidate {
  id: string;
  score: number;
  allowed: boolean;
  trendable: boolean | null;
}

/** A site links come from (Mastodon's PreviewCardProvider). */
export interface Publisher {
  id: string;
  domain: string;
  trendable: boolean | null;
  reviewedAt: string | null;
  requestedReviewAt: string | null;
}

/** A staff member to write to; `settings` is the user's settings JSON. */
export interface StaffRecipient {
  userId: string;
  email: string;
  username: string;
  settings: string;
}

/** The decisions that cover a link: its own (null: none) and whether its publisher has one. */
export interface LinkReview {
  id: string;
  url: string;
  trendable: boolean | null;
  publisherReviewed: boolean;
}

function toPublisher(r: Selectable<PreviewCardProvidersTable>): Publisher {
  return {
    id: String(r.id),
    domain: r.domain,
    trendable: nullableBool(r.trendable),
    reviewedAt: r.reviewed_at,
    requestedReviewAt: r.requested_review_at,
  };
}

/**
 * What the candidates waiting for a review notice must beat: the score of the `place`-th allowed
 * item (of the language, for posts and links), 0 when fewer are allowed. Mastodon asks for a
 * review only of items that would enter the public top three.
 */
function scoreAt(rows: readonly { score: unknown }[], place: number): number {
  return Number(rows[place - 1]?.score ?? 0);
}

/**
 * All SQL of the moderators' trend review (Mastodon's Admin::Trends): the candidates of each kind
 * with their decisions, the switches on tags, posts, links and publishers, and the candidates
 * staff have not yet been told about. The scores themselves are the trends job's (trends.ts).
 */
export class TrendReviewRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** One page of the scored hashtags, allowed or not, best first. */
  async tagCandidates(limit: number, offset: number): Promise<TrendCandidate[]> {
    const rows = await this.#db
      .selectFrom("trend_tags")
      .innerJoin("tags", "tags.id", "trend_tags.tag_id")
      .select(["tags.id", "trend_tags.score", "trend_tags.allowed", "tags.trendable"])
      .orderBy("trend_tags.score", "desc")
      .orderBy("tags.id", "desc")
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({
      id: String(r.id),
      score: Number(r.score),
      allowed: Boolean(r.allowed),
      trendable: nullableBool(r.trendable),
    }));
  }

  /** One page of the scored posts (not deleted), allowed or not, best first. */
  async statusCandidates(limit: number, offset: number): Promise<TrendCandidate[]> {
    const rows = await this.#db
      .selectFrom("trend_statuses")
      .innerJoin("statuses", "statuses.id", "trend_statuses.status_id")
      .select(["statuses.id", "trend_statuses.score", "trend_statuses.allowed", "statuses.trendable"])
      .where("statuses.deleted_at", "is", null)
      .orderBy("trend_statuses.score", "desc")
      .orderBy("statuses.id", "desc")
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({
      id: String(r.id),
      score: Number(r.score),
      allowed: Boolean(r.allowed),
      trendable: nullableBool(r.trendable),
    }));
  }

  /** One page of the scored links, allowed or not, best first. */
  async linkCandidates(limit: number, offset: number): Promise<TrendCandidate[]> {
    const rows = await this.#db
      .selectFrom("trend_links")
      .innerJoin("preview_cards", "preview_cards.id", "trend_links.preview_card_id")
      .select(["preview_cards.id", "trend_links.score", "trend_links.allowed", "preview_cards.trendable"])
      .orderBy("trend_links.score", "desc")
      .orderBy("preview_cards.id", "desc")
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({
      id: String(r.id),
      score: Number(r.score),
      allowed: Boolean(r.allowed),
      trendable: nullableBool(r.trendable),
    }));
  }

  /** The decisions covering each card (its publisher matched by host name); unknown cards are left out. */
  async linkReviews(ids: readonly string[]): Promise<Map<string, LinkReview>> {
    if (ids.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom("preview_cards")
      .select(["id", "url", "trendable"])
      .where("id", "in", [...ids])
      .execute();
    const providers = await this.publishersByDomain(rows.map((r) => hostOf(r.url)).filter((h) => h !== ""));
    return new Map(
      rows.map((r) => [
        String(r.id),
        {
          id: String(r.id),
          url: r.url,
          trendable: nullableBool(r.trendable),
          publisherReviewed: (providers.get(hostOf(r.url))?.reviewedAt ?? null) !== null,
        },
      ]),
    );
  }

  async publishersByDomain(domains: readonly string[]): Promise<Map<string, Publisher>> {
    if (domains.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom("preview_card_providers")
      .selectAll()
      .where("domain", "in", [...new Set(domains)])
      .execute();
    return new Map(rows.map((r) => [r.domain, toPublisher(r)]));
  }

  /** One page of the publishers, newest first (Mastodon's `to_a_paginated_by_id`). */
  async publishersPage(window: IdWindow): Promise<Publisher[]> {
    const q = applyWindow(this.#db.selectFrom("preview_card_providers").selectAll(), "id", window);
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(toPublisher));
  }

  async publisherById(id: string, db: Kysely<DB> = this.#db): Promise<Publisher | undefined> {
    const r = await db.selectFrom("preview_card_providers").selectAll().where("id", "=", id).executeTakeFirst();
    return r && toPublisher(r);
  }

  /** A publisher's decision, with the time it was made (Mastodon's `reviewed_at`). */
  async setPublisherTrendable(id: string, trendable: boolean, now: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .updateTable("preview_card_providers")
      .set({ trendable, reviewed_at: now, updated_at: now })
      .where("id", "=", id)
      .execute();
  }

  /** A hashtag's decision, marking it reviewed (Mastodon's `reviewed_at`). */
  async setTagTrendable(id: string, trendable: boolean, now: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db.updateTable("tags").set({ trendable, reviewed_at: now, updated_at: now }).where("id", "=", id).execute();
  }

  async setStatusTrendable(id: string, trendable: boolean, db: Kysely<DB> = this.#db): Promise<void> {
    await db.updateTable("statuses").set({ trendable }).where("id", "=", id).execute();
  }

  async setCardTrendable(id: string, trendable: boolean, now: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db.updateTable("preview_cards").set({ trendable, updated_at: now }).where("id", "=", id).execute();
  }

  /** A card by id (its URL names the publisher), for the action log. */
  async cardUrl(id: string, db: Kysely<DB> = this.#db): Promise<string | undefined> {
    const r = await db.selectFrom("preview_cards").select("url").where("id", "=", id).executeTakeFirst();
    return r?.url;
  }

  /**
   * Hashtags staff should hear about (Mastodon's Trends::Tags#request_review): scored above the
   * `place`-th allowed one, not allowed, never reviewed, never announced. Each is marked
   * announced here, and only those this call marked are answered, so two runs at once tell once.
   */
  async claimTagsForNotice(place: number, now: string): Promise<string[]> {
    const allowed = await this.#db
      .selectFrom("trend_tags")
      .select("score")
      .where("allowed", "=", true)
      .orderBy("score", "desc")
      .limit(place)
      .execute();
    const rows = await this.#db
      .selectFrom("trend_tags")
      .innerJoin("tags", "tags.id", "trend_tags.tag_id")
      .select("tags.id")
      .where("trend_tags.allowed", "=", false)
      .where(
        "trend_tags.score",
        ">",
        scoreAt(
          allowed.map((r) => ({ score: Number(r.score) })),
          place,
        ),
      )
      .where("tags.trendable", "is", null)
      .where("tags.reviewed_at", "is", null)
      .where("tags.requested_review_at", "is", null)
      .orderBy("trend_tags.score", "desc")
      .limit(100)
      .execute();
    if (rows.length === 0) return [];
    const claimed = await this.#db
      .updateTable("tags")
      .set({ requested_review_at: now })
      .where(
        "id",
        "in",
        rows.map((r) => String(r.id)),
      )
      .where("requested_review_at", "is", null)
      .returning("id")
      .execute();
    return claimed.map((r) => String(r.id));
  }

  /**
   * Posts staff should hear about (Mastodon's Trends::Statuses#request_review), per language:
   * scored above the language's `place`-th allowed post, not allowed, never reviewed, never
   * announced; claimed as `claimTagsForNotice` does.
   */
  async claimStatusesForNotice(place: number, now: string): Promise<string[]> {
    const thresholds = await this.#allowedScores("trend_statuses", place);
    const rows = await this.#db
      .selectFrom("trend_statuses")
      .innerJoin("statuses", "statuses.id", "trend_statuses.status_id")
      .select(["statuses.id", "trend_statuses.score", "trend_statuses.language"])
      .where("trend_statuses.allowed", "=", false)
      .where("trend_statuses.score", ">", 0)
      .where("statuses.deleted_at", "is", null)
      .where("statuses.trendable", "is", null)
      .where("statuses.requested_review_at", "is", null)
      .orderBy("trend_statuses.score", "desc")
      .limit(500)
      .execute();
    const wanted = rows
      .filter((r) => Number(r.score) > (thresholds.get(r.language ?? "") ?? 0))
      .slice(0, 100)
      .map((r) => String(r.id));
    if (wanted.length === 0) return [];
    const claimed = await this.#db
      .updateTable("statuses")
      .set({ requested_review_at: now })
      .where("id", "in", wanted)
      .where("requested_review_at", "is", null)
      .returning("id")
      .execute();
    return claimed.map((r) => String(r.id));
  }

  /**
   * Links staff should hear about (Mastodon's Trends::Links#request_review), per language:
   * scored above the language's `place`-th allowed link, not allowed, the card never reviewed
   * and its publisher neither reviewed nor announced. As Mastodon, the publisher is what is
   * marked announced (created when the trends job has not recorded it yet): one notice per site
   * until a moderator decides on it. Answers the cards whose publisher this call marked.
   */
  async claimLinksForNotice(place: number, now: string, newId: () => string): Promise<string[]> {
    const thresholds = await this.#allowedScores("trend_links", place);
    const rows = await this.#db
      .selectFrom("trend_links")
      .innerJoin("preview_cards", "preview_cards.id", "trend_links.preview_card_id")
      .select(["preview_cards.id", "preview_cards.url", "trend_links.score", "trend_links.language"])
      .where("trend_links.allowed", "=", false)
      .where("trend_links.score", ">", 0)
      .where("preview_cards.trendable", "is", null)
      .orderBy("trend_links.score", "desc")
      .limit(500)
      .execute();
    const candidates = rows.filter((r) => Number(r.score) > (thresholds.get(r.language ?? "") ?? 0));
    const domains = [...new Set(candidates.map((r) => hostOf(r.url)).filter((h) => h !== ""))];
    if (domains.length === 0) return [];
    // A publisher the trends job has not recorded yet is recorded here, unannounced.
    await this.#db
      .insertInto("preview_card_providers")
      .values(domains.map((domain) => ({ id: newId(), domain, created_at: now, updated_at: now })))
      .onConflict((oc) => oc.column("domain").doNothing())
      .execute();
    const claimed = await this.#db
      .updateTable("preview_card_providers")
      .set({ requested_review_at: now })
      .where("domain", "in", domains)
      .where("reviewed_at", "is", null)
      .where("requested_review_at", "is", null)
      .returning("domain")
      .execute();
    const mine = new Set(claimed.map((r) => r.domain));
    return candidates
      .filter((r) => mine.has(hostOf(r.url)))
      .slice(0, 100)
      .map((r) => String(r.id));
  }

  /**
   * The local users of `roleIds` who can be written to: not disabled, confirmed, their account
   * not suspended. Their settings decide whether they want the mail.
   */
  async mailableStaff(roleIds: readonly string[]): Promise<StaffRecipient[]> {
    if (roleIds.length === 0) return [];
    const rows = await this.#db
      .selectFrom("users")
      .innerJoin("accounts", "accounts.id", "users.account_id")
      .select(["users.id", "users.email", "users.settings", "accounts.username"])
      .where("users.role_id", "in", [...roleIds])
      .where("users.disabled", "=", false)
      .where("users.confirmed_at", "is not", null)
      .where("accounts.domain", "is", null)
      .where("accounts.suspended_at", "is", null)
      .orderBy("users.id")
      .execute();
    return rows.map((r) => ({ userId: String(r.id), email: r.email, username: r.username, settings: r.settings }));
  }

  /** Per language (null as ""), the score of the `place`-th allowed candidate. */
  async #allowedScores(table: "trend_statuses" | "trend_links", place: number): Promise<Map<string, number>> {
    const rows = await this.#db
      .selectFrom(
        this.#db
          .selectFrom(table)
          .select([
            "language",
            "score",
            sql<number>`row_number() over (partition by language order by score desc)`.as("place"),
          ])
          .where("allowed", "=", true)
          .as("ranked"),
      )
      .select(["language", "score"])
      .where("place", "=", place)
      .execute();
    return new Map(rows.map((r) => [r.language ?? "", Number(r.score)]));
  }
}

/** A link's host name, lower-cased ("" when it is not a URL): the publisher's `domain`. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return "";
  }
}
