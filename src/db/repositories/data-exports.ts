import type { Kysely, Selectable } from "kysely";
import type { DB, StatusesTable } from "../schema.ts";
import type { Status } from "./statuses.ts";
import { toStatus } from "./statuses.ts";

/** An account as an export names it: `username` and `domain` (null for a local one). */
export interface ExportedAccount {
  /** The account's id. */
  accountId: string;
  username: string;
  domain: string | null;
}

export interface ExportedFollow extends ExportedAccount {
  /** The relationship row (the cursor of the next batch). */
  id: string;
  showReblogs: boolean;
  notify: boolean;
  languages: string[] | null;
}

export interface ExportedMute extends ExportedAccount {
  id: string;
  hideNotifications: boolean;
}

export interface ExportedListMember extends ExportedAccount {
  /** The membership row. */
  id: string;
}

/** What the export page counts for an account. */
export interface ExportCounts {
  storage: number;
  lists: number;
  blocks: number;
  mutes: number;
  domainBlocks: number;
  bookmarks: number;
}

const parseLanguages = (v: string | null): string[] | null => {
  if (!v) return null;
  try {
    const list = JSON.parse(v);
    return Array.isArray(list) && list.length > 0 ? list.map(String) : null;
  } catch {
    return null;
  }
};

/**
 * The reads behind the settings' CSV exports and archive (services/data/): counts, and each
 * relationship in batches (keyset pages on the row id) so a large account is never read at once.
 */
export class DataExportsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async counts(accountId: string, now: string): Promise<ExportCounts> {
    const db = this.#db;
    const count = async (q: Promise<{ n: string | number | bigint } | undefined>) => Number((await q)?.n ?? 0);
    const [storage, lists, blocks, mutes, domainBlocks, bookmarks] = await Promise.all([
      db
        .selectFrom("media_attachments")
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("file_size"), eb.lit(0)).as("n"))
        .where("account_id", "=", accountId)
        .executeTakeFirst()
        .then((r) => Number(r?.n ?? 0)),
      count(
        db
          .selectFrom("lists")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("account_id", "=", accountId)
          .executeTakeFirst(),
      ),
      count(
        db
          .selectFrom("blocks")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("account_id", "=", accountId)
          .executeTakeFirst(),
      ),
      count(
        db
          .selectFrom("mutes")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("account_id", "=", accountId)
          .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
          .executeTakeFirst(),
      ),
      count(
        db
          .selectFrom("account_domain_blocks")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("account_id", "=", accountId)
          .executeTakeFirst(),
      ),
      count(
        db
          .selectFrom("bookmarks")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("account_id", "=", accountId)
          .executeTakeFirst(),
      ),
    ]);
    return { storage, lists, blocks, mutes, domainBlocks, bookmarks };
  }

  /** Follows, newest first, older than `before` (a row id). */
  async followsBatch(accountId: string, before: string | undefined, limit: number): Promise<ExportedFollow[]> {
    let q = this.#db
      .selectFrom("follows as f")
      .innerJoin("accounts as a", "a.id", "f.target_account_id")
      .select(["f.id", "a.id as account_id", "a.username", "a.domain", "f.show_reblogs", "f.notify", "f.languages"])
      .where("f.account_id", "=", accountId);
    if (before !== undefined) q = q.where("f.id", "<", before);
    const rows = await q.orderBy("f.id", "desc").limit(limit).execute();
    return rows.map((r) => ({
      id: String(r.id),
      accountId: String(r.account_id),
      username: r.username,
      domain: r.domain,
      showReblogs: Boolean(r.show_reblogs),
      notify: Boolean(r.notify),
      languages: parseLanguages(r.languages),
    }));
  }

  /** Blocked accounts, newest block first. */
  async blocksBatch(
    accountId: string,
    before: string | undefined,
    limit: number,
  ): Promise<(ExportedAccount & { id: string })[]> {
    let q = this.#db
      .selectFrom("blocks as b")
      .innerJoin("accounts as a", "a.id", "b.target_account_id")
      .select(["b.id", "a.id as account_id", "a.username", "a.domain"])
      .where("b.account_id", "=", accountId);
    if (before !== undefined) q = q.where("b.id", "<", before);
    const rows = await q.orderBy("b.id", "desc").limit(limit).execute();
    return rows.map((r) => ({
      id: String(r.id),
      accountId: String(r.account_id),
      username: r.username,
      domain: r.domain,
    }));
  }

  /** Muted accounts (expired mutes left out), newest mute first. */
  async mutesBatch(accountId: string, now: string, before: string | undefined, limit: number): Promise<ExportedMute[]> {
    let q = this.#db
      .selectFrom("mutes as m")
      .innerJoin("accounts as a", "a.id", "m.target_account_id")
      .select(["m.id", "a.id as account_id", "a.username", "a.domain", "m.hide_notifications"])
      .where("m.account_id", "=", accountId)
      .where((eb) => eb.or([eb("m.expires_at", "is", null), eb("m.expires_at", ">", now)]));
    if (before !== undefined) q = q.where("m.id", "<", before);
    const rows = await q.orderBy("m.id", "desc").limit(limit).execute();
    return rows.map((r) => ({
      id: String(r.id),
      accountId: String(r.account_id),
      username: r.username,
      domain: r.domain,
      hideNotifications: Boolean(r.hide_notifications),
    }));
  }

  /** Blocked domains, in the order they were blocked. */
  async domainBlocksBatch(
    accountId: string,
    after: string | undefined,
    limit: number,
  ): Promise<{ id: string; domain: string }[]> {
    let q = this.#db.selectFrom("account_domain_blocks").select(["id", "domain"]).where("account_id", "=", accountId);
    if (after !== undefined) q = q.where("id", ">", after);
    const rows = await q.orderBy("id", "asc").limit(limit).execute();
    return rows.map((r) => ({ id: String(r.id), domain: r.domain }));
  }

  /** Every bookmark of the account: the bookmark row and the status's id and URI (import's overwrite). */
  async bookmarkedStatuses(accountId: string): Promise<{ statusId: string; uri: string }[]> {
    const rows = await this.#db
      .selectFrom("bookmarks as x")
      .innerJoin("statuses as s", "s.id", "x.status_id")
      .select(["s.id", "s.uri"])
      .where("x.account_id", "=", accountId)
      .execute();
    return rows.map((r) => ({ statusId: String(r.id), uri: r.uri }));
  }

  /**
   * URIs of the statuses in `table` (bookmarks or favourites) that still exist, newest first;
   * `id` is the bookmark's or favourite's row.
   */
  async statusUrisBatch(
    table: "bookmarks" | "favourites",
    accountId: string,
    before: string | undefined,
    limit: number,
  ): Promise<{ id: string; uri: string }[]> {
    let q = this.#db
      .selectFrom(`${table} as x`)
      .innerJoin("statuses as s", "s.id", "x.status_id")
      .select(["x.id", "s.uri"])
      .where("x.account_id", "=", accountId)
      .where("s.deleted_at", "is", null);
    if (before !== undefined) q = q.where("x.id", "<", before);
    const rows = await q.orderBy("x.id", "desc").limit(limit).execute();
    return rows.map((r) => ({ id: String(r.id), uri: r.uri }));
  }

  /** The account's lists (id and title), oldest first. */
  async lists(accountId: string): Promise<{ id: string; title: string }[]> {
    const rows = await this.#db
      .selectFrom("lists")
      .select(["id", "title"])
      .where("account_id", "=", accountId)
      .orderBy("id", "asc")
      .execute();
    return rows.map((r) => ({ id: String(r.id), title: r.title }));
  }

  /** Members of a list, in the order they were added. */
  async listMembersBatch(listId: string, after: string | undefined, limit: number): Promise<ExportedListMember[]> {
    let q = this.#db
      .selectFrom("list_accounts as la")
      .innerJoin("accounts as a", "a.id", "la.account_id")
      .select(["la.id", "a.id as account_id", "a.username", "a.domain"])
      .where("la.list_id", "=", listId);
    if (after !== undefined) q = q.where("la.id", ">", after);
    const rows = await q.orderBy("la.id", "asc").limit(limit).execute();
    return rows.map((r) => ({
      id: String(r.id),
      accountId: String(r.account_id),
      username: r.username,
      domain: r.domain,
    }));
  }

  /** The account's live statuses (posts and boosts, every visibility), oldest first, after `after`. */
  async statusesBatch(accountId: string, after: string | undefined, limit: number): Promise<Status[]> {
    let q = this.#db
      .selectFrom("statuses")
      .selectAll()
      .where("account_id", "=", accountId)
      .where("deleted_at", "is", null);
    if (after !== undefined) q = q.where("id", ">", after);
    const rows: Selectable<StatusesTable>[] = await q.orderBy("id", "asc").limit(limit).execute();
    return rows.map(toStatus);
  }
}
