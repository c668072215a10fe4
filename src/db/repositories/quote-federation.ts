import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";
import type { Quote, QuotesRepository } from "./quotes.ts";

/** What an outgoing Note says of the post it quotes. */
export interface NoteQuote {
  quote: Quote;
  /** The quoted post's URI (its row's, else the one the quote named). */
  quotedUri: string | null;
  /** Whether the quoted post is a local one (then its stamp is served here). */
  quotedLocal: boolean;
  /** The quoted post's author's username when local (the stamp's path). */
  quotedAuthorUsername: string | null;
}

/** A remote post's quote as its latest Note states it. */
export interface QuoteChange {
  quotedStatusId: string | null;
  quotedAccountId: string | null;
  quotedUri: string;
  approvalUri: string | null;
  legacy: boolean;
}

/**
 * The SQL quote federation needs beyond QuotesRepository: the quotes of Notes going out, with
 * what they say of the quoted posts (one query), and the changes a remote edit makes to a quote.
 * State changes go through `QuotesRepository.setState` (counts and kept renders follow there).
 */
export class QuoteFederationRepository {
  readonly #db: Kysely<DB>;
  readonly #quotes: QuotesRepository;
  constructor(db: Kysely<DB>, quotes: QuotesRepository) {
    this.#db = db;
    this.#quotes = quotes;
  }

  /** The quotes the given posts make, with their quoted posts' URIs and local authors (two queries). */
  async noteQuotes(statusIds: readonly string[]): Promise<Map<string, NoteQuote>> {
    const quotes = await this.#quotes.byQuotingStatuses(statusIds);
    const quotedIds = [...new Set([...quotes.values()].flatMap((q) => (q.quotedStatusId ? [q.quotedStatusId] : [])))];
    const rows =
      quotedIds.length === 0
        ? []
        : await this.#db
            .selectFrom("statuses")
            .innerJoin("accounts", "accounts.id", "statuses.account_id")
            .select(["statuses.id", "statuses.uri", "statuses.local", "accounts.username", "accounts.domain"])
            .where("statuses.id", "in", quotedIds)
            .execute();
    const quoted = new Map(rows.map((r) => [String(r.id), r]));
    const out = new Map<string, NoteQuote>();
    for (const [statusId, quote] of quotes) {
      const q = quote.quotedStatusId === null ? undefined : quoted.get(quote.quotedStatusId);
      out.set(statusId, {
        quote,
        quotedUri: q?.uri ?? quote.quotedUri,
        quotedLocal: Boolean(q?.local),
        quotedAuthorUsername: q && q.domain === null ? q.username : null,
      });
    }
    return out;
  }

  /**
   * A remote edit changed what the quote names (the quoted post now known, a new stamp, the
   * older form): the quote row follows, its state unchanged here (`setState` after, if needed).
   * A quoted post that changes moves the count with it when the quote is accepted.
   */
  async update(quote: Quote, change: QuoteChange, at: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .updateTable("quotes")
      .set({
        quoted_status_id: change.quotedStatusId,
        quoted_account_id: change.quotedAccountId,
        quoted_uri: change.quotedUri,
        approval_uri: change.approvalUri,
        legacy: change.legacy,
        updated_at: at,
      })
      .where("id", "=", quote.id)
      .execute();
    if (quote.state === "accepted" && quote.quotedStatusId !== change.quotedStatusId) {
      if (quote.quotedStatusId !== null) await this.#quotes.addToQuotesCount(quote.quotedStatusId, -1, db);
      if (change.quotedStatusId !== null) await this.#quotes.addToQuotesCount(change.quotedStatusId, 1, db);
    }
    await this.#quotes.touchStatuses([quote.statusId], db);
  }

  /** Removes a post's quote (its edit no longer quotes that post), giving back its count. */
  async deleteByStatusId(statusId: string, db: Kysely<DB> = this.#db): Promise<void> {
    const quote = await this.#quotes.byQuotingStatus(statusId, db);
    if (!quote) return;
    await db.deleteFrom("quotes").where("id", "=", quote.id).execute();
    if (quote.state === "accepted" && quote.quotedStatusId !== null) {
      await this.#quotes.addToQuotesCount(quote.quotedStatusId, -1, db);
    }
    await this.#quotes.touchStatuses([statusId], db);
  }
}
