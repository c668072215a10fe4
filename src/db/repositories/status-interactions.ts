import { type Kysely, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { DB } from "../schema.ts";
import { selectShaped } from "./query-shapes.ts";
import {
  applyWindow,
  idWindowOrder,
  type Reader,
  type Status,
  sortDesc,
  toStatus,
  visibleCondition,
} from "./statuses.ts";

/** The tables that tie one account to one status: favourites, bookmarks and pins. */
export type AccountStatusTableName = "favourites" | "bookmarks" | "status_pins";

/** The viewer's flags on a list of statuses (`viewerFlags`). */
export interface ViewerFlagSets {
  favourited: Set<string>;
  bookmarked: Set<string>;
  pinned: Set<string>;
  reblogged: Set<string>;
  /** Conversation ids. */
  muted: Set<string>;
}

/** All SQL on `favourites`, `bookmarks`, `status_pins` and `conversation_mutes`. */
export class StatusInteractionsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** Adds the row; false when it already existed. */
  async add(
    table: AccountStatusTableName,
    row: { id: string; account_id: string; status_id: string; created_at: string },
    db: Kysely<DB> = this.#db,
  ): Promise<boolean> {
    const r = await db
      .insertInto(table)
      .values(row)
      .onConflict((oc) => oc.columns(["account_id", "status_id"]).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Removes the row; false when there was none. */
  async remove(table: AccountStatusTableName, accountId: string, statusId: string, db: Kysely<DB> = this.#db) {
    const r = await db
      .deleteFrom(table)
      .where("account_id", "=", accountId)
      .where("status_id", "=", statusId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Removes the row and answers its id (a favourite's id names its Like); undefined when none. */
  async take(
    table: AccountStatusTableName,
    accountId: string,
    statusId: string,
    db: Kysely<DB> = this.#db,
  ): Promise<string | undefined> {
    const r = await db
      .deleteFrom(table)
      .where("account_id", "=", accountId)
      .where("status_id", "=", statusId)
      .returning(["id"])
      .executeTakeFirst();
    return r ? String(r.id) : undefined;
  }

  /** Which of `statusIds` have a row of `accountId` in `table`. */
  async which(table: AccountStatusTableName, accountId: string, statusIds: readonly string[]): Promise<Set<string>> {
    if (statusIds.length === 0) return new Set();
    const rows = await this.#db
      .selectFrom(table)
      .select("status_id")
      .where("account_id", "=", accountId)
      .where("status_id", "in", statusIds)
      .execute();
    return new Set(rows.map((r) => String(r.status_id)));
  }

  /**
   * The viewer's flags on statuses in one query: which of `statusIds` the account favourited,
   * bookmarked, boosted (live boosts) and, among `pinnableIds`, pinned; which of
   * `conversationIds` it muted.
   */
  async viewerFlags(
    accountId: string,
    statusIds: readonly string[],
    pinnableIds: readonly string[],
    conversationIds: readonly string[],
  ): Promise<ViewerFlagSets> {
    const out: ViewerFlagSets = {
      favourited: new Set(),
      bookmarked: new Set(),
      pinned: new Set(),
      reblogged: new Set(),
      muted: new Set(),
    };
    if (statusIds.length === 0) return out;
    const db = this.#db;
    const pair = (table: AccountStatusTableName, kind: string, ids: readonly string[]) =>
      db
        .selectFrom(table)
        .select([sql.lit(kind).as("kind"), "status_id as id"])
        .where("account_id", "=", accountId)
        .where("status_id", "in", ids);
    const build = () => {
      let q = pair("favourites", "f", statusIds)
        .unionAll(pair("bookmarks", "b", statusIds))
        .unionAll(
          db
            .selectFrom("statuses")
            .select([sql.lit("r").as("kind"), "reblog_of_id as id"])
            .where("account_id", "=", accountId)
            .where("reblog_of_id", "in", statusIds)
            .where("deleted_at", "is", null)
            .$narrowType<{ id: string }>(),
        );
      if (pinnableIds.length > 0) q = q.unionAll(pair("status_pins", "p", pinnableIds));
      if (conversationIds.length > 0)
        q = q.unionAll(
          db
            .selectFrom("conversation_mutes")
            .select([sql.lit("m").as("kind"), "conversation_id as id"])
            .where("account_id", "=", accountId)
            .where("conversation_id", "in", conversationIds),
        );
      return q;
    };
    const sets: Record<string, Set<string>> = {
      f: out.favourited,
      b: out.bookmarked,
      p: out.pinned,
      r: out.reblogged,
      m: out.muted,
    };
    const params = [accountId, ...statusIds, accountId, ...statusIds, accountId, ...statusIds];
    if (pinnableIds.length > 0) params.push(accountId, ...pinnableIds);
    if (conversationIds.length > 0) params.push(accountId, ...conversationIds);
    const shape = `statusInteractions.viewerFlags ${statusIds.length} ${pinnableIds.length} ${conversationIds.length}`;
    for (const r of await selectShaped(db, shape, params, build)) sets[String(r.kind)]?.add(String(r.id));
    return out;
  }

  /** Live pinned statuses of an account. */
  async countLivePins(accountId: string, db: Kysely<DB> = this.#db): Promise<number> {
    const r = await db
      .selectFrom("status_pins")
      .innerJoin("statuses", "statuses.id", "status_pins.status_id")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("status_pins.account_id", "=", accountId)
      .where("statuses.deleted_at", "is", null)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Drops every pin of a status (when it is deleted). */
  async removeAllPins(statusId: string, db: Kysely<DB>): Promise<void> {
    await db.deleteFrom("status_pins").where("status_id", "=", statusId).execute();
  }

  /**
   * One page of the statuses an account favourited or bookmarked that the reader still may see,
   * paginated by the favourite's (bookmark's) own id: [rowId, status].
   */
  async statusesPage(
    table: "favourites" | "bookmarks",
    accountId: string,
    window: IdWindow,
  ): Promise<{ id: string; status: Status }[]> {
    const reader: Reader = { accountId };
    let q = this.#db
      .selectFrom(table)
      .innerJoin("statuses", "statuses.id", `${table}.status_id`)
      .selectAll("statuses")
      .select(`${table}.id as row_id`)
      .where(`${table}.account_id`, "=", accountId)
      .where("statuses.deleted_at", "is", null)
      .where(visibleCondition(reader));
    q = applyWindow(q, `${table}.id`, window);
    const rows = await q.orderBy(`${table}.id`, idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map((r) => ({ id: String(r.row_id), status: toStatus(r) })));
  }

  /** Favourites of a status, paginated by the favourite's id: [favouriteId, accountId]. */
  async favouritersPage(statusId: string, window: IdWindow): Promise<{ id: string; accountId: string }[]> {
    let q = this.#db.selectFrom("favourites").select(["id", "account_id"]).where("status_id", "=", statusId);
    q = applyWindow(q, "favourites.id", window);
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map((r) => ({ id: String(r.id), accountId: String(r.account_id) })));
  }

  // Conversation mutes

  async muteConversation(id: string, accountId: string, conversationId: string): Promise<void> {
    await this.#db
      .insertInto("conversation_mutes")
      .values({ id, account_id: accountId, conversation_id: conversationId })
      .onConflict((oc) => oc.columns(["account_id", "conversation_id"]).doNothing())
      .execute();
  }

  async unmuteConversation(accountId: string, conversationId: string): Promise<void> {
    await this.#db
      .deleteFrom("conversation_mutes")
      .where("account_id", "=", accountId)
      .where("conversation_id", "=", conversationId)
      .execute();
  }

  async mutedConversations(accountId: string, conversationIds: readonly string[]): Promise<Set<string>> {
    if (conversationIds.length === 0) return new Set();
    const rows = await this.#db
      .selectFrom("conversation_mutes")
      .select("conversation_id")
      .where("account_id", "=", accountId)
      .where("conversation_id", "in", conversationIds)
      .execute();
    return new Set(rows.map((r) => String(r.conversation_id)));
  }
}
