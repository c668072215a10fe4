import { type Kysely, type Selectable, sql } from "kysely";
import type { QuotesTable } from "../schema/discovery.ts";
import type { DB } from "../schema.ts";

export type QuoteState = "pending" | "accepted" | "rejected" | "revoked" | "deleted" | "unauthorized";

/** One row of `quotes`: a post (`statusId`) quoting another, and where its approval stands. */
export interface QuoteRecord {
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

/** What an outgoing Note says of the post it quotes. */
export interface NoteQuote {
  quote: QuoteRecord;
  /** The quoted post's URI (its row's, else the one the quote named). */
  quotedUri: string | null;
  /** Whether the quoted post is a local one (then its stamp is served here). */
  quotedLocal: boolean;
  /** The quoted post's author: URI and, when local, username (the stamp's path). */
  quotedAuthorUri: string | null;
  quotedAuthorUsername: string | null;
}

export type QuoteInsert = {
  id: string;
  status_id: string;
  account_id: string;
  quoted_status_id: string | null;
  quoted_account_id: string | null;
  state: QuoteState;
  quoted_uri: string | null;
  approval_uri: string | null;
  activity_uri: string | null;
  legacy: boolean;
};

export type QuotePatch = Partial<
  Pick<
    QuoteInsert,
    "quoted_status_id" | "quoted_account_id" | "quoted_uri" | "approval_uri" | "activity_uri" | "legacy"
  >
>;

function toRecord(r: Selectable<QuotesTable>): QuoteRecord {
  return {
    id: String(r.id),
    statusId: String(r.status_id),
    accountId: String(r.account_id),
    quotedStatusId: r.quoted_status_id === null ? null : String(r.quoted_status_id),
    quotedAccountId: r.quoted_account_id === null ? null : String(r.quoted_account_id),
    state: r.state as QuoteState,
    quotedUri: r.quoted_uri,
    approvalUri: r.approval_uri,
    activityUri: r.activity_uri,
    legacy: Boolean(r.legacy),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * The SQL quote federation needs on `quotes` and on the quote columns of `statuses`: finding a
 * quote by the activity or stamp that names it, moving it between states with the quoted post's
 * `quotes_count` kept equal to its accepted quotes, and the posts' quote policies.
 */
export class QuoteFederationRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async #one(column: "id" | "status_id" | "activity_uri" | "approval_uri", value: string, db: Kysely<DB>) {
    const row = await db.selectFrom("quotes").selectAll().where(column, "=", value).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  getById(id: string, db: Kysely<DB> = this.#db): Promise<QuoteRecord | undefined> {
    return /^[0-9]{1,20}$/.test(id) ? this.#one("id", id, db) : Promise.resolve(undefined);
  }

  /** The quote a post makes (a post quotes at most one post). */
  getByStatusId(statusId: string, db: Kysely<DB> = this.#db): Promise<QuoteRecord | undefined> {
    return this.#one("status_id", statusId, db);
  }

  /** The quote a QuoteRequest (by its activity id) asked for. */
  getByActivityUri(uri: string, db: Kysely<DB> = this.#db): Promise<QuoteRecord | undefined> {
    return this.#one("activity_uri", uri, db);
  }

  /** The quotes a stamp approved (one, unless a remote server reused a stamp URI). */
  async listByApprovalUri(uri: string, db: Kysely<DB> = this.#db): Promise<QuoteRecord[]> {
    const rows = await db.selectFrom("quotes").selectAll().where("approval_uri", "=", uri).limit(20).execute();
    return rows.map(toRecord);
  }

  async insert(row: QuoteInsert, at: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .insertInto("quotes")
      .values({ ...row, created_at: at, updated_at: at })
      .execute();
    if (row.state === "accepted" && row.quoted_status_id !== null) {
      await this.#addToCount(row.quoted_status_id, 1, db);
    }
  }

  /**
   * Moves a quote to `state` (with `patch`), keeping `quotes_count` of the quoted post equal to
   * its accepted quotes: +1 on entering `accepted`, -1 on leaving it. Call inside a transaction.
   */
  async setState(
    quote: QuoteRecord,
    state: QuoteState,
    patch: QuotePatch,
    at: string,
    db: Kysely<DB> = this.#db,
  ): Promise<void> {
    await db
      .updateTable("quotes")
      .set({ ...patch, state, updated_at: at })
      .where("id", "=", quote.id)
      .execute();
    const before = quote.state === "accepted" ? quote.quotedStatusId : null;
    const after =
      state === "accepted"
        ? patch.quoted_status_id !== undefined
          ? patch.quoted_status_id
          : quote.quotedStatusId
        : null;
    if (before === after) return;
    if (before !== null) await this.#addToCount(before, -1, db);
    if (after !== null) await this.#addToCount(after, 1, db);
  }

  /** Names the QuoteRequest sent for a local quote (the answer is matched by it). */
  async setActivityUri(id: string, uri: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db.updateTable("quotes").set({ activity_uri: uri }).where("id", "=", id).execute();
  }

  /** Removes a post's quote (its edit no longer quotes), giving back its count. */
  async deleteByStatusId(statusId: string, db: Kysely<DB> = this.#db): Promise<void> {
    const quote = await this.getByStatusId(statusId, db);
    if (!quote) return;
    await db.deleteFrom("quotes").where("id", "=", quote.id).execute();
    if (quote.state === "accepted" && quote.quotedStatusId !== null) {
      await this.#addToCount(quote.quotedStatusId, -1, db);
    }
  }

  async #addToCount(statusId: string, delta: number, db: Kysely<DB>): Promise<void> {
    await db
      .updateTable("statuses")
      .set({ quotes_count: sql`CASE WHEN quotes_count + ${delta} < 0 THEN 0 ELSE quotes_count + ${delta} END` })
      .where("id", "=", statusId)
      .execute();
  }

  /** Each post's quote policy (the raw JSON of `statuses.quote_policy`; null: only its author). */
  async quotePolicies(statusIds: readonly string[]): Promise<Map<string, string | null>> {
    if (statusIds.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom("statuses")
      .select(["id", "quote_policy"])
      .where("id", "in", [...statusIds])
      .execute();
    return new Map(rows.map((r) => [String(r.id), r.quote_policy]));
  }

  async setQuotePolicy(statusId: string, policy: string | null, db: Kysely<DB> = this.#db): Promise<void> {
    await db.updateTable("statuses").set({ quote_policy: policy }).where("id", "=", statusId).execute();
  }

  /** The quotes the given posts make, with what their Notes say of the quoted posts (one query). */
  async noteQuotes(statusIds: readonly string[]): Promise<Map<string, NoteQuote>> {
    if (statusIds.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom("quotes")
      .leftJoin("statuses as q", "q.id", "quotes.quoted_status_id")
      .leftJoin("accounts as qa", "qa.id", "quotes.quoted_account_id")
      .selectAll("quotes")
      .select([
        "q.uri as q_uri",
        "q.local as q_local",
        "q.deleted_at as q_deleted_at",
        "qa.uri as qa_uri",
        "qa.username as qa_username",
        "qa.domain as qa_domain",
      ])
      .where("quotes.status_id", "in", [...statusIds])
      .execute();
    const out = new Map<string, NoteQuote>();
    for (const r of rows) {
      const quote = toRecord(r);
      const local = Boolean(r.q_local) && r.q_uri !== null;
      out.set(quote.statusId, {
        quote,
        quotedUri: r.q_uri ?? quote.quotedUri,
        quotedLocal: local,
        quotedAuthorUri: r.qa_uri ?? null,
        quotedAuthorUsername: r.qa_domain === null && r.qa_username ? r.qa_username : null,
      });
    }
    return out;
  }
}
