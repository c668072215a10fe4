import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DialectName } from "../database.ts";
import type { DB } from "../schema.ts";
import { type Account, searchableAccountCondition, toAccount } from "./accounts.ts";
import { type Reader, type Status, toStatus, visibleCondition } from "./statuses.ts";

/** A full-text query already written in the dialect's syntax (see services/search/query.ts). */
export interface DialectQuery {
  sqlite?: string;
  postgres?: string;
}

export interface AccountSearch {
  /** Words that must each start a word of the display name, username or domain. */
  match: DialectQuery;
  /** Lower-cased start of the domain (`user@dom...`), if given. */
  domainPrefix?: string;
  /** The account named exactly by the query comes first. */
  exact?: { username: string; domain: string | null };
  /** Only the exact match (anonymous callers with a very short query). */
  exactOnly: boolean;
  viewerId?: string;
  /** Only accounts the viewer follows, and the viewer. */
  following: boolean;
  limit: number;
  offset: number;
}

/** A condition from one of Mastodon's search operators; `negated` turns it around. */
export type StatusFilter =
  | { kind: "account"; id: string; negated: boolean }
  | { kind: "media"; types?: string[]; negated: boolean }
  | { kind: "poll" | "reply" | "sensitive"; negated: boolean }
  | { kind: "language"; codes: string[]; negated: boolean }
  | { kind: "ids"; from?: string; before?: string; negated: boolean }
  | { kind: "library" | "public" }
  /** Matches nothing (an unknown account or property). */
  | { kind: "none" };

export interface StatusSearch {
  /** The full text to match; without it, `filters` alone choose. */
  match: DialectQuery;
  filters: StatusFilter[];
  reader: Reader;
  accountId?: string;
  minId?: string;
  maxId?: string;
  limit: number;
  offset: number;
}

export interface TagRow {
  id: string;
  name: string;
  displayName: string;
}

/** How long a status search may run on PostgreSQL before it is given up. */
export const STATUS_SEARCH_TIMEOUT_MS = 5000;

/** `LIKE` pattern text with its wildcards escaped (used with `ESCAPE '\'`). */
export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Mastodon's `searchable_by` (since 4.2): the reader's own posts and those they favourited,
 * bookmarked, boosted, voted in or were mentioned in (a silent mention, only addressed, does not
 * count). Each test is one probe of a unique or leading-column index.
 */
function libraryCondition(viewer: string): RawBuilder<boolean> {
  return sql<boolean>`(statuses.account_id = ${viewer}
    OR EXISTS (SELECT 1 FROM favourites f WHERE f.account_id = ${viewer} AND f.status_id = statuses.id)
    OR EXISTS (SELECT 1 FROM bookmarks b WHERE b.account_id = ${viewer} AND b.status_id = statuses.id)
    OR EXISTS (SELECT 1 FROM mentions m WHERE m.account_id = ${viewer} AND m.status_id = statuses.id
      AND m.silent = ${false})
    OR EXISTS (SELECT 1 FROM statuses r WHERE r.reblog_of_id = statuses.id AND r.account_id = ${viewer}
      AND r.deleted_at IS NULL)
    OR (statuses.poll_id IS NOT NULL AND EXISTS (SELECT 1 FROM poll_votes v WHERE v.poll_id = statuses.poll_id
      AND v.account_id = ${viewer})))`;
}

/** Mastodon's public statuses index: public posts (not unlisted) of accounts that opted in (`indexable`). */
const indexableCondition = sql<boolean>`(statuses.visibility = 'public' AND EXISTS (SELECT 1 FROM accounts author
  WHERE author.id = statuses.account_id AND author.indexable = ${true}))`;

/**
 * All search SQL: accounts and statuses through the full-text indexes of migration 0010 (FTS5
 * tables on SQLite, `to_tsvector('simple', ...)` GIN indexes on PostgreSQL, queried with the
 * same expressions), hashtags by name prefix. Every query has a LIMIT and an OFFSET the caller
 * bounded.
 */
export class SearchRepository {
  readonly #db: Kysely<DB>;
  readonly #dialect: DialectName;
  constructor(db: Kysely<DB>, dialect: DialectName) {
    this.#db = db;
    this.#dialect = dialect;
  }

  #accountMatch(match: DialectQuery): RawBuilder<boolean> | undefined {
    if (this.#dialect === "postgres") {
      if (match.postgres === undefined) return undefined;
      return sql<boolean>`to_tsvector('simple', accounts.display_name || ' ' || accounts.username || ' ' || coalesce(accounts.domain, ''))
        @@ to_tsquery('simple', ${match.postgres})`;
    }
    if (match.sqlite === undefined) return undefined;
    return sql<boolean>`accounts.id IN (SELECT rowid FROM accounts_fts WHERE accounts_fts MATCH ${match.sqlite})`;
  }

  async accounts(q: AccountSearch): Promise<Account[]> {
    const match = this.#accountMatch(q.match);
    if (match === undefined && q.domainPrefix === undefined) return [];
    let query = this.#db
      .selectFrom("accounts")
      .selectAll("accounts")
      .where(searchableAccountCondition())
      .where("accounts.moved_to_account_id", "is", null);
    if (match !== undefined) query = query.where(match);
    if (q.domainPrefix !== undefined) {
      query = query.where(sql<boolean>`lower(accounts.domain) LIKE ${`${escapeLike(q.domainPrefix)}%`} ESCAPE '\\'`);
    }
    const exact = q.exact
      ? sql<boolean>`(lower(accounts.username) = ${q.exact.username.toLowerCase()}
          AND coalesce(lower(accounts.domain), '') = ${(q.exact.domain ?? "").toLowerCase()})`
      : undefined;
    if (q.exactOnly) {
      if (exact === undefined) return [];
      query = query.where(exact);
    }
    const viewer = q.viewerId;
    if (viewer !== undefined && q.following) {
      query = query.where(
        sql<boolean>`(accounts.id = ${viewer} OR EXISTS (SELECT 1 FROM follows WHERE follows.account_id = ${viewer}
          AND follows.target_account_id = accounts.id))`,
      );
    }
    if (exact !== undefined) query = query.orderBy(sql`CASE WHEN ${exact} THEN 0 ELSE 1 END`);
    if (viewer !== undefined && !q.following) {
      // As Mastodon: accounts the viewer follows or is followed by come before strangers.
      query = query.orderBy(
        sql`CASE WHEN EXISTS (SELECT 1 FROM follows WHERE (follows.account_id = ${viewer} AND follows.target_account_id = accounts.id)
          OR (follows.account_id = accounts.id AND follows.target_account_id = ${viewer})) THEN 0 ELSE 1 END`,
      );
    }
    const rows = await query
      .orderBy("accounts.followers_count", "desc")
      .orderBy("accounts.id")
      .limit(q.limit)
      .offset(q.offset)
      .execute();
    return rows.map(toAccount);
  }

  #statusMatch(match: DialectQuery): RawBuilder<boolean> | undefined {
    if (this.#dialect === "postgres") {
      if (match.postgres === undefined) return undefined;
      // The expression of the `statuses_search` index.
      return sql<boolean>`to_tsvector('simple', statuses.text || ' ' || statuses.spoiler_text)
        @@ to_tsquery('simple', ${match.postgres})`;
    }
    if (match.sqlite === undefined) return undefined;
    // `statuses_fts` is joined in `statuses()`.
    return sql<boolean>`statuses_fts MATCH ${match.sqlite}`;
  }

  #filterCondition(f: StatusFilter, reader: Reader): RawBuilder<boolean> {
    const not = (negated: boolean, c: RawBuilder<boolean>) => (negated ? sql<boolean>`NOT ${c}` : c);
    switch (f.kind) {
      case "account":
        return not(f.negated, sql<boolean>`(statuses.account_id = ${f.id})`);
      case "media": {
        const types = f.types ? sql` AND media_attachments.type IN (${sql.join(f.types)})` : sql``;
        return not(
          f.negated,
          sql<boolean>`EXISTS (SELECT 1 FROM media_attachments WHERE media_attachments.status_id = statuses.id${types})`,
        );
      }
      case "poll":
        return not(f.negated, sql<boolean>`(statuses.poll_id IS NOT NULL)`);
      case "reply":
        return not(f.negated, sql<boolean>`(statuses.in_reply_to_id IS NOT NULL)`);
      case "sensitive":
        return not(f.negated, sql<boolean>`(statuses.sensitive = ${true})`);
      case "language":
        return not(
          f.negated,
          sql<boolean>`(statuses.language IS NOT NULL AND lower(statuses.language) IN (${sql.join(f.codes)}))`,
        );
      case "ids": {
        const from = f.from === undefined ? sql`1 = 1` : sql`statuses.id >= ${f.from}`;
        const before = f.before === undefined ? sql`1 = 1` : sql`statuses.id < ${f.before}`;
        return not(f.negated, sql<boolean>`(${from} AND ${before})`);
      }
      case "library":
        return libraryCondition(reader.accountId ?? "0");
      case "public":
        return indexableCondition;
      case "none":
        return sql<boolean>`(1 = 0)`;
    }
  }

  /**
   * Live posts (not boosts) matching the query that the reader may see and Mastodon would index for
   * them (public posts of `indexable` authors, and the reader's library), newest first.
   */
  async statuses(q: StatusSearch): Promise<Status[]> {
    const match = this.#statusMatch(q.match);
    if (match === undefined && q.filters.length === 0) return [];
    if (q.filters.some((f) => f.kind === "none")) return [];
    const fts = this.#dialect === "sqlite" && match !== undefined;
    let from = this.#db.selectFrom("statuses");
    if (fts) {
      // FTS5 hands its matches newest first by itself (ORDER BY rowid DESC), so a page stops
      // reading matches once it is full.
      from = from.innerJoin(sql<{ rowid: string }>`statuses_fts`.as("statuses_fts"), (j) =>
        j.on(sql<boolean>`statuses.id = statuses_fts.rowid`),
      ) as unknown as typeof from;
    }
    let query = from
      .selectAll("statuses")
      .where("statuses.reblog_of_id", "is", null)
      .where("statuses.deleted_at", "is", null)
      .where(visibleCondition(q.reader))
      // Only what Mastodon indexes for this reader: opted-in public posts, and the reader's library.
      .where(sql<boolean>`(${indexableCondition} OR ${libraryCondition(q.reader.accountId ?? "0")})`);
    if (match !== undefined) query = query.where(match);
    for (const f of q.filters) query = query.where(this.#filterCondition(f, q.reader));
    if (q.accountId !== undefined) query = query.where("statuses.account_id", "=", q.accountId);
    // On the FTS5 side too, so that FTS5 starts reading at the cursor.
    const idCol = fts ? sql.raw("statuses_fts.rowid") : sql.ref("statuses.id");
    if (q.minId !== undefined) query = query.where(sql<boolean>`${idCol} > ${q.minId}`);
    if (q.maxId !== undefined) query = query.where(sql<boolean>`${idCol} < ${q.maxId}`);
    const order = fts ? sql`statuses_fts.rowid` : sql`statuses.id`;
    query = query.orderBy(order, "desc").limit(q.limit).offset(q.offset);
    if (this.#dialect === "sqlite") return (await query.execute()).map(toStatus);
    // PostgreSQL may still misjudge a query (say, two common words that never meet) and read the
    // whole table: such a search gives up after a few seconds with nothing found, as Mastodon's
    // does when its search engine fails, rather than holding a connection.
    try {
      return await this.#db.transaction().execute(async (trx) => {
        await sql`SET LOCAL statement_timeout = ${sql.lit(STATUS_SEARCH_TIMEOUT_MS)}`.execute(trx);
        const compiled = query.compile();
        const r = await trx.executeQuery(compiled);
        return (r.rows as Parameters<typeof toStatus>[0][]).map(toStatus);
      });
    } catch (e) {
      if ((e as { code?: string }).code === "57014") return [];
      throw e;
    }
  }

  /**
   * Hashtags whose name starts with `prefix` (lower-cased, without `#`), shortest first, as
   * Mastodon orders them, leaving out the ones moderators unlisted; `reviewedOnly` keeps the tag
   * of that very name and the ones moderators reviewed (Mastodon's `exclude_unreviewed`).
   */
  async tags(prefix: string, reviewedOnly: boolean, limit: number, offset: number): Promise<TagRow[]> {
    let query = this.#db
      .selectFrom("tags")
      .select(["id", "name", "display_name"])
      .where(sql<boolean>`lower(name) LIKE ${`${escapeLike(prefix)}%`} ESCAPE '\\'`)
      .where((eb) => eb.or([eb("listable", "is", null), eb("listable", "=", true)]));
    if (reviewedOnly) {
      query = query.where((eb) =>
        eb.or([eb(sql<string>`lower(name)`, "=", prefix), eb("reviewed_at", "is not", null)]),
      );
    }
    const rows = await query.orderBy(sql`length(name)`).orderBy("name").limit(limit).offset(offset).execute();
    return rows.map((r) => ({ id: String(r.id), name: r.name, displayName: r.display_name }));
  }
}
