import { type Kysely, type Selectable, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { QuotesTable } from "../schema/discovery.ts";
import type { DB } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";

/** The states of a quote (Mastodon's Quote model); the API adds viewer-dependent ones when rendering. */
export const QUOTE_STATES = ["pending", "accepted", "rejected", "revoked", "deleted", "unauthorized"] as const;
export type QuoteState = (typeof QUOTE_STATES)[number];

/** One quote: the quoting post (`statusId`) and what it quotes. */
export interface Quote {
  id: string;
  statusId: string;
  accountId: string;
  quotedStatusId: string | null;
  quotedAccountId: string | null;
  state: QuoteState;
  quotedUri: string | null;
  approvalUri: string | null;
  activityUri: string | null;
  legacy: boolean;
  createdAt: string;
  updatedAt: string;
}

const idOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function toQuote(r: Selectable<QuotesTable>): Quote {
  return {
    id: String(r.id),
    statusId: String(r.status_id),
    accountId: String(r.account_id),
    quotedStatusId: idOrNull(r.quoted_status_id),
    quotedAccountId: idOrNull(r.quoted_account_id),
    state: r.state as QuoteState,
    quotedUri: r.quoted_uri,
    approvalUri: r.approval_uri,
    activityUri: r.activity_uri,
    legacy: Boolean(r.legacy),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export interface QuoteInsert {
  id: string;
  statusId: string;
  accountId: string;
  quotedStatusId: string | null;
  quotedAccountId: string | null;
  state: QuoteState;
  quotedUri?: string | null;
  approvalUri?: string | null;
  activityUri?: string | null;
  legacy?: boolean;
  now: string;
}

/**
 * All SQL on `quotes` and the quote columns of `statuses` (`quotes_count`, `quote_policy`).
 *
 * A quote's state shows in its quoting post's JSON, which rendering keeps in memory until the
 * change log (migration 0024) names that post: every state change here also "touches" the
 * quoting post's row (an update that changes nothing but fires the log's trigger).
 */
export class QuotesRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async insert(q: QuoteInsert, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .insertInto("quotes")
      .values({
        id: q.id,
        status_id: q.statusId,
        account_id: q.accountId,
        quoted_status_id: q.quotedStatusId,
        quoted_account_id: q.quotedAccountId,
        state: q.state,
        quoted_uri: q.quotedUri ?? null,
        approval_uri: q.approvalUri ?? null,
        activity_uri: q.activityUri ?? null,
        legacy: q.legacy ?? false,
        created_at: q.now,
        updated_at: q.now,
      })
      .execute();
    await this.touchStatuses([q.statusId], db);
  }

  async byId(id: string, db: Kysely<DB> = this.#db): Promise<Quote | undefined> {
    const r = await db.selectFrom("quotes").selectAll().where("id", "=", id).executeTakeFirst();
    return r && toQuote(r);
  }

  /** The quote made by the quoting post `statusId`. */
  async byQuotingStatus(statusId: string, db: Kysely<DB> = this.#db): Promise<Quote | undefined> {
    const r = await db.selectFrom("quotes").selectAll().where("status_id", "=", statusId).executeTakeFirst();
    return r && toQuote(r);
  }

  /** The quote of `quotedStatusId` made by the quoting post `statusId`. */
  async byQuotingAndQuoted(statusId: string, quotedStatusId: string): Promise<Quote | undefined> {
    const r = await this.#db
      .selectFrom("quotes")
      .selectAll()
      .where("status_id", "=", statusId)
      .where("quoted_status_id", "=", quotedStatusId)
      .executeTakeFirst();
    return r && toQuote(r);
  }

  /** The quotes made by these quoting posts, by quoting post id (one query). */
  async byQuotingStatuses(statusIds: readonly string[]): Promise<Map<string, Quote>> {
    if (statusIds.length === 0) return new Map();
    const rows = await this.#db.selectFrom("quotes").selectAll().where("status_id", "in", statusIds).execute();
    return new Map(rows.map((r) => [String(r.status_id), toQuote(r)]));
  }

  /** The quote with this QuoteRequest activity URI (federation). */
  async byActivityUri(uri: string): Promise<Quote | undefined> {
    const r = await this.#db.selectFrom("quotes").selectAll().where("activity_uri", "=", uri).executeTakeFirst();
    return r && toQuote(r);
  }

  /** The quote with this QuoteAuthorization URI (federation). */
  async byApprovalUri(uri: string): Promise<Quote | undefined> {
    const r = await this.#db.selectFrom("quotes").selectAll().where("approval_uri", "=", uri).executeTakeFirst();
    return r && toQuote(r);
  }

  /** Accepted quotes of a post, newest first, paged by the quote's id: [quote id, quoting post id]. */
  async acceptedPage(quotedStatusId: string, window: IdWindow): Promise<{ id: string; statusId: string }[]> {
    let q = this.#db
      .selectFrom("quotes")
      .innerJoin("statuses", "statuses.id", "quotes.status_id")
      .select(["quotes.id as id", "quotes.status_id as status_id"])
      .where("quotes.quoted_status_id", "=", quotedStatusId)
      .where("quotes.state", "=", "accepted")
      .where("statuses.deleted_at", "is", null);
    q = applyWindow(q, "quotes.id", window);
    const rows = await q.orderBy("quotes.id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map((r) => ({ id: String(r.id), statusId: String(r.status_id) })));
  }

  /** Live quoting posts of these accepted quotes of `quotedStatusId`: their authors, for `quoted_update`. */
  async acceptedQuoterIds(quotedStatusId: string): Promise<string[]> {
    const rows = await this.#db
      .selectFrom("quotes")
      .innerJoin("statuses", "statuses.id", "quotes.status_id")
      .select("quotes.account_id as account_id")
      .distinct()
      .where("quotes.quoted_status_id", "=", quotedStatusId)
      .where("quotes.state", "=", "accepted")
      .where("statuses.deleted_at", "is", null)
      .execute();
    return rows.map((r) => String(r.account_id));
  }

  /**
   * Sets a quote's state (and, when given, its approval URI); answers the state it had, or
   * undefined when the quote is gone. `quotes_count` of the quoted post follows: up when the
   * quote becomes accepted, down when it stops being so.
   */
  async setState(
    id: string,
    state: QuoteState,
    now: string,
    db: Kysely<DB> = this.#db,
    extra: { approvalUri?: string | null } = {},
  ): Promise<QuoteState | undefined> {
    const before = await this.byId(id, db);
    if (!before) return undefined;
    await db
      .updateTable("quotes")
      .set({ state, updated_at: now, ...(extra.approvalUri !== undefined ? { approval_uri: extra.approvalUri } : {}) })
      .where("id", "=", id)
      .execute();
    if (before.quotedStatusId !== null && before.state !== state) {
      if (state === "accepted") await this.addToQuotesCount(before.quotedStatusId, 1, db);
      else if (before.state === "accepted") await this.addToQuotesCount(before.quotedStatusId, -1, db);
    }
    await this.touchStatuses([before.statusId], db);
    return before.state;
  }

  /**
   * Posts `statusIds` were deleted (in the deleting transaction): their accepted quotes no longer
   * count on the posts they quote (the quote rows stay, so the deleted post's JSON still shows
   * what it quoted, for a redraft), and quotes of them become `deleted`.
   */
  async statusesDeleted(statusIds: readonly string[], now: string, db: Kysely<DB> = this.#db): Promise<void> {
    if (statusIds.length === 0) return;
    const gone = new Set(statusIds);
    const quoting = await db
      .selectFrom("quotes")
      .select("quoted_status_id")
      .where("status_id", "in", statusIds)
      .where("state", "=", "accepted")
      .where("quoted_status_id", "is not", null)
      .execute();
    const counts = new Map<string, number>();
    for (const r of quoting) {
      const id = String(r.quoted_status_id);
      if (!gone.has(id)) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    for (const [id, n] of counts) await this.addToQuotesCount(id, -n, db);
    const quotedRows = await db
      .selectFrom("quotes")
      .select("status_id")
      .where("quoted_status_id", "in", statusIds)
      .where("state", "!=", "deleted")
      .execute();
    if (quotedRows.length === 0) return;
    await db
      .updateTable("quotes")
      .set({ state: "deleted", updated_at: now })
      .where("quoted_status_id", "in", statusIds)
      .where("state", "!=", "deleted")
      .execute();
    await this.touchStatuses(
      quotedRows.map((r) => String(r.status_id)),
      db,
    );
  }

  /** `quotes_count` of a post by `delta`, never below 0. */
  async addToQuotesCount(statusId: string, delta: number, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .updateTable("statuses")
      .set({
        quotes_count: sql`CASE WHEN quotes_count + ${delta} < 0 THEN 0 ELSE quotes_count + ${delta} END`,
      })
      .where("id", "=", statusId)
      .execute();
  }

  /** Sets a post's quote policy (JSON text; null: only its author). */
  async setPolicy(statusId: string, policy: string | null, db: Kysely<DB> = this.#db): Promise<void> {
    await db.updateTable("statuses").set({ quote_policy: policy }).where("id", "=", statusId).execute();
  }

  /** An update that changes nothing but logs the posts as changed (their kept renders are dropped). */
  async touchStatuses(statusIds: readonly string[], db: Kysely<DB> = this.#db): Promise<void> {
    if (statusIds.length === 0) return;
    await db.updateTable("statuses").set({ quotes_count: sql`quotes_count` }).where("id", "in", statusIds).execute();
  }
}
