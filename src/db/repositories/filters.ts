import { type Kysely, type Selectable, sql } from "kysely";
import type { DB, FilterKeywordsTable, FilterStatusesTable, FiltersTable } from "../schema.ts";

export const FILTER_CONTEXTS = ["home", "notifications", "public", "thread", "account"] as const;
export type FilterContext = (typeof FILTER_CONTEXTS)[number];
export const FILTER_ACTIONS = ["warn", "hide", "blur"] as const;
export type FilterAction = (typeof FILTER_ACTIONS)[number];

export interface Filter {
  id: string;
  accountId: string;
  title: string;
  context: FilterContext[];
  action: FilterAction;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface FilterKeyword {
  id: string;
  filterId: string;
  keyword: string;
  wholeWord: boolean;
}

export interface FilterStatus {
  id: string;
  filterId: string;
  statusId: string;
}

/** A filter in force with all its rules (`activeFor`). */
export interface ActiveFilter {
  filter: Filter;
  keywords: FilterKeyword[];
  statusIds: string[];
}

function parseContext(v: string): FilterContext[] {
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed)
      ? parsed.filter((x): x is FilterContext => (FILTER_CONTEXTS as readonly unknown[]).includes(x))
      : [];
  } catch {
    return [];
  }
}

const toFilter = (r: Selectable<FiltersTable>): Filter => ({
  id: String(r.id),
  accountId: String(r.account_id),
  title: r.title,
  context: parseContext(r.context),
  action: (FILTER_ACTIONS as readonly string[]).includes(r.action) ? (r.action as FilterAction) : "warn",
  expiresAt: r.expires_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toKeyword = (r: Pick<Selectable<FilterKeywordsTable>, "id" | "filter_id" | "keyword" | "whole_word">) => ({
  id: String(r.id),
  filterId: String(r.filter_id),
  keyword: r.keyword,
  wholeWord: Boolean(r.whole_word),
});

const toStatus = (r: Pick<Selectable<FilterStatusesTable>, "id" | "filter_id" | "status_id">) => ({
  id: String(r.id),
  filterId: String(r.filter_id),
  statusId: String(r.status_id),
});

export interface FilterRow {
  title: string;
  context: FilterContext[];
  action: FilterAction;
  expiresAt: string | null;
}

/** All SQL on `filters`, `filter_keywords` and `filter_statuses`. Writes take the transaction. */
export class FiltersRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** The account's filters, oldest first (expired ones included). */
  async listByAccount(accountId: string): Promise<Filter[]> {
    const rows = await this.#db
      .selectFrom("filters")
      .selectAll()
      .where("account_id", "=", accountId)
      .orderBy("id", "asc")
      .execute();
    return rows.map(toFilter);
  }

  async getOwned(accountId: string, id: string, db: Kysely<DB> = this.#db): Promise<Filter | undefined> {
    const r = await db
      .selectFrom("filters")
      .selectAll()
      .where("id", "=", id)
      .where("account_id", "=", accountId)
      .executeTakeFirst();
    return r ? toFilter(r) : undefined;
  }

  async getByIds(ids: readonly string[]): Promise<Filter[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db.selectFrom("filters").selectAll().where("id", "in", ids).execute();
    return rows.map(toFilter);
  }

  /** The keywords of the filters, oldest first. */
  async keywordsOf(filterIds: readonly string[], db: Kysely<DB> = this.#db): Promise<FilterKeyword[]> {
    if (filterIds.length === 0) return [];
    const rows = await db
      .selectFrom("filter_keywords")
      .select(["id", "filter_id", "keyword", "whole_word"])
      .where("filter_id", "in", filterIds)
      .orderBy("id", "asc")
      .execute();
    return rows.map(toKeyword);
  }

  async statusesOf(filterIds: readonly string[]): Promise<FilterStatus[]> {
    if (filterIds.length === 0) return [];
    const rows = await this.#db
      .selectFrom("filter_statuses")
      .select(["id", "filter_id", "status_id"])
      .where("filter_id", "in", filterIds)
      .orderBy("id", "asc")
      .execute();
    return rows.map(toStatus);
  }

  /** Every keyword of the account's filters, oldest first (the v1 list). */
  async keywordsOfAccount(accountId: string): Promise<FilterKeyword[]> {
    const rows = await this.#db
      .selectFrom("filter_keywords")
      .innerJoin("filters", "filters.id", "filter_keywords.filter_id")
      .select([
        "filter_keywords.id",
        "filter_keywords.filter_id",
        "filter_keywords.keyword",
        "filter_keywords.whole_word",
      ])
      .where("filters.account_id", "=", accountId)
      .orderBy("filter_keywords.id", "asc")
      .execute();
    return rows.map(toKeyword);
  }

  /** One keyword of the account's filters. */
  async getKeywordOwned(accountId: string, id: string): Promise<FilterKeyword | undefined> {
    const r = await this.#db
      .selectFrom("filter_keywords")
      .innerJoin("filters", "filters.id", "filter_keywords.filter_id")
      .select([
        "filter_keywords.id",
        "filter_keywords.filter_id",
        "filter_keywords.keyword",
        "filter_keywords.whole_word",
      ])
      .where("filter_keywords.id", "=", id)
      .where("filters.account_id", "=", accountId)
      .executeTakeFirst();
    return r ? toKeyword(r) : undefined;
  }

  /** One status entry of the account's filters. */
  async getStatusOwned(accountId: string, id: string): Promise<FilterStatus | undefined> {
    const r = await this.#db
      .selectFrom("filter_statuses")
      .innerJoin("filters", "filters.id", "filter_statuses.filter_id")
      .select(["filter_statuses.id", "filter_statuses.filter_id", "filter_statuses.status_id"])
      .where("filter_statuses.id", "=", id)
      .where("filters.account_id", "=", accountId)
      .executeTakeFirst();
    return r ? toStatus(r) : undefined;
  }

  async insertFilter(row: FilterRow & { id: string; accountId: string; at: string }, db: Kysely<DB>): Promise<void> {
    await db
      .insertInto("filters")
      .values({
        id: row.id,
        account_id: row.accountId,
        title: row.title,
        context: JSON.stringify(row.context),
        action: row.action,
        expires_at: row.expiresAt,
        created_at: row.at,
        updated_at: row.at,
      })
      .execute();
  }

  async updateFilter(id: string, row: FilterRow, at: string, db: Kysely<DB>): Promise<void> {
    await db
      .updateTable("filters")
      .set({
        title: row.title,
        context: JSON.stringify(row.context),
        action: row.action,
        expires_at: row.expiresAt,
        updated_at: at,
      })
      .where("id", "=", id)
      .execute();
  }

  /** Deletes a filter with its keywords and statuses. */
  async deleteFilter(id: string, db: Kysely<DB>): Promise<void> {
    await db.deleteFrom("filter_keywords").where("filter_id", "=", id).execute();
    await db.deleteFrom("filter_statuses").where("filter_id", "=", id).execute();
    await db.deleteFrom("filters").where("id", "=", id).execute();
  }

  async insertKeyword(
    row: { id: string; filterId: string; keyword: string; wholeWord: boolean; at: string },
    db: Kysely<DB>,
  ): Promise<void> {
    await db
      .insertInto("filter_keywords")
      .values({
        id: row.id,
        filter_id: row.filterId,
        keyword: row.keyword,
        whole_word: row.wholeWord,
        created_at: row.at,
        updated_at: row.at,
      })
      .execute();
  }

  async updateKeyword(id: string, keyword: string, wholeWord: boolean, at: string, db: Kysely<DB>): Promise<void> {
    await db
      .updateTable("filter_keywords")
      .set({ keyword, whole_word: wholeWord, updated_at: at })
      .where("id", "=", id)
      .execute();
  }

  async deleteKeyword(id: string, db: Kysely<DB>): Promise<void> {
    await db.deleteFrom("filter_keywords").where("id", "=", id).execute();
  }

  /** How many keywords and statuses a filter holds. */
  async ruleCount(filterId: string, db: Kysely<DB> = this.#db): Promise<number> {
    const r = await db
      .selectNoFrom([
        sql<number>`(SELECT COUNT(*) FROM filter_keywords WHERE filter_id = ${filterId})`.as("k"),
        sql<number>`(SELECT COUNT(*) FROM filter_statuses WHERE filter_id = ${filterId})`.as("s"),
      ])
      .executeTakeFirstOrThrow();
    return Number(r.k) + Number(r.s);
  }

  /** Adds a status to a filter; false when the filter holds it already. */
  async insertStatus(
    row: { id: string; filterId: string; statusId: string; at: string },
    db: Kysely<DB>,
  ): Promise<boolean> {
    const r = await db
      .insertInto("filter_statuses")
      .values({ id: row.id, filter_id: row.filterId, status_id: row.statusId, created_at: row.at, updated_at: row.at })
      .onConflict((oc) => oc.columns(["filter_id", "status_id"]).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async deleteStatus(id: string, db: Kysely<DB>): Promise<void> {
    await db.deleteFrom("filter_statuses").where("id", "=", id).execute();
  }

  /**
   * The account's filters in force at `now` with their keywords and statuses, in one query
   * (keywords and status entries as the two halves of a UNION ALL), oldest first.
   */
  async activeFor(accountId: string, now: string): Promise<ActiveFilter[]> {
    const { rows } = await sql<{
      id: string;
      title: string;
      context: string;
      action: string;
      expires_at: string | null;
      created_at: string;
      updated_at: string;
      rule_id: string | null;
      keyword: string | null;
      whole_word: boolean | number | null;
      status_id: string | null;
    }>`
      SELECT f.id, f.title, f.context, f.action, f.expires_at, f.created_at, f.updated_at,
        k.id AS rule_id, k.keyword, k.whole_word, CAST(NULL AS bigint) AS status_id
      FROM filters f JOIN filter_keywords k ON k.filter_id = f.id
      WHERE f.account_id = ${accountId} AND (f.expires_at IS NULL OR f.expires_at > ${now})
      UNION ALL
      SELECT f.id, f.title, f.context, f.action, f.expires_at, f.created_at, f.updated_at,
        s.id AS rule_id, CAST(NULL AS text) AS keyword, CAST(NULL AS boolean) AS whole_word, s.status_id
      FROM filters f JOIN filter_statuses s ON s.filter_id = f.id
      WHERE f.account_id = ${accountId} AND (f.expires_at IS NULL OR f.expires_at > ${now})
      ORDER BY 1, 8`.execute(this.#db);
    const out = new Map<string, ActiveFilter>();
    for (const r of rows) {
      const id = String(r.id);
      let entry = out.get(id);
      if (!entry) {
        entry = {
          filter: toFilter({ ...r, id, account_id: accountId }),
          keywords: [],
          statusIds: [],
        };
        out.set(id, entry);
      }
      if (r.status_id !== null) entry.statusIds.push(String(r.status_id));
      else if (r.keyword !== null) {
        entry.keywords.push({
          id: String(r.rule_id),
          filterId: id,
          keyword: r.keyword,
          wholeWord: Boolean(r.whole_word),
        });
      }
    }
    return [...out.values()];
  }
}
