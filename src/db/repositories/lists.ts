import { type Kysely, type RawBuilder, type Selectable, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { DialectName } from "../database.ts";
import type { DB, ListsTable } from "../schema.ts";
import { applyWindow, idWindowOrder } from "./id-window.ts";
import { selectShaped } from "./query-shapes.ts";
import { homeFilterAllows } from "./relationships.ts";

export type RepliesPolicy = "followed" | "list" | "none";

export interface List {
  id: string;
  accountId: string;
  title: string;
  repliesPolicy: RepliesPolicy;
  exclusive: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A membership: `id` is the row's (the cursor of the members page). */
export interface ListMember {
  id: string;
  accountId: string;
}

function toList(r: Selectable<ListsTable>): List {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    title: r.title,
    repliesPolicy: r.replies_policy as RepliesPolicy,
    exclusive: Boolean(r.exclusive),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * Whether status `s` (a post or boost by a member `la.account_id` of list `l`; `o` is the boosted
 * post, left-joined) belongs in that list's feed, as Mastodon's list filter (FeedManager's list
 * and home filters): a live public, unlisted or private status whose author the owner follows (a
 * boost only when that follow shows boosts), or the owner's own; a reply to someone else only to
 * the owner, or by `replies_policy` (`followed`: someone the owner follows, `list`: a member, `none`:
 * never); a boost not when the feed already holds the post or another boost of it; and, for
 * anyone else's status, nothing the owner blocks or mutes (author, booster, boosted author,
 * mentioned accounts) nor by someone who blocks the owner.
 */
function eligible(now: string): RawBuilder<unknown> {
  return sql`s.deleted_at IS NULL AND s.visibility IN ('public', 'unlisted', 'private')
    AND (l.account_id = s.account_id OR EXISTS (SELECT 1 FROM follows f WHERE f.account_id = l.account_id
      AND f.target_account_id = s.account_id AND (s.reblog_of_id IS NULL OR f.show_reblogs = TRUE)))
    AND (s.in_reply_to_account_id IS NULL OR s.in_reply_to_account_id = s.account_id
      OR s.in_reply_to_account_id = l.account_id
      OR (l.replies_policy = 'followed' AND EXISTS (SELECT 1 FROM follows rf WHERE rf.account_id = l.account_id
        AND rf.target_account_id = s.in_reply_to_account_id))
      OR (l.replies_policy = 'list' AND EXISTS (SELECT 1 FROM list_accounts rl WHERE rl.list_id = l.id
        AND rl.account_id = s.in_reply_to_account_id)))
    AND (s.reblog_of_id IS NULL OR NOT EXISTS (SELECT 1 FROM list_feeds x WHERE x.list_id = l.id
      AND (x.status_id = s.reblog_of_id OR x.reblog_of_id = s.reblog_of_id)))
    AND (l.account_id = s.account_id OR ${homeFilterAllows(sql.ref("l.account_id"), now)})`;
}

/** All SQL on `lists`, `list_accounts` and `list_feeds` (the materialised list timelines). */
export class ListsRepository {
  readonly #db: Kysely<DB>;
  readonly #dialect: DialectName;
  constructor(db: Kysely<DB>, dialect: DialectName) {
    this.#db = db;
    this.#dialect = dialect;
  }

  /** An account's lists, oldest first. */
  async listsOf(accountId: string): Promise<List[]> {
    const rows = await this.#db
      .selectFrom("lists")
      .selectAll()
      .where("account_id", "=", accountId)
      .orderBy("id", "asc")
      .execute();
    return rows.map(toList);
  }

  async countOf(accountId: string, db: Kysely<DB> = this.#db): Promise<number> {
    const r = await db
      .selectFrom("lists")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("account_id", "=", accountId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** One of `ownerId`'s lists. */
  async getOwned(ownerId: string, id: string, db: Kysely<DB> = this.#db): Promise<List | undefined> {
    const r = await db
      .selectFrom("lists")
      .selectAll()
      .where("id", "=", id)
      .where("account_id", "=", ownerId)
      .executeTakeFirst();
    return r ? toList(r) : undefined;
  }

  async insert(
    row: {
      id: string;
      account_id: string;
      title: string;
      replies_policy: RepliesPolicy;
      exclusive: boolean;
      created_at: string;
    },
    db: Kysely<DB> = this.#db,
  ): Promise<void> {
    await db
      .insertInto("lists")
      .values({ ...row, updated_at: row.created_at })
      .execute();
  }

  async update(
    id: string,
    patch: { title?: string; replies_policy?: RepliesPolicy; exclusive?: boolean; updated_at: string },
    db: Kysely<DB> = this.#db,
  ): Promise<void> {
    await db.updateTable("lists").set(patch).where("id", "=", id).execute();
  }

  /** Deletes a list with its members and timeline. */
  async delete(id: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db.deleteFrom("list_feeds").where("list_id", "=", id).execute();
    await db.deleteFrom("list_accounts").where("list_id", "=", id).execute();
    await db.deleteFrom("lists").where("id", "=", id).execute();
  }

  /**
   * A page of a list's members that are not suspended, newest membership first; all of them
   * when `window` is null.
   */
  async membersPage(listId: string, window: IdWindow | null): Promise<ListMember[]> {
    let q = this.#db
      .selectFrom("list_accounts")
      .innerJoin("accounts", "accounts.id", "list_accounts.account_id")
      .select(["list_accounts.id as id", "list_accounts.account_id as account_id"])
      .where("list_accounts.list_id", "=", listId)
      .where("accounts.suspended_at", "is", null);
    if (window) {
      q = applyWindow(q, "list_accounts.id", window)
        .orderBy("list_accounts.id", idWindowOrder(window))
        .limit(window.limit);
    } else {
      q = q.orderBy("list_accounts.id", "desc");
    }
    const rows = await q.execute();
    return rows
      .map((r) => ({ id: String(r.id), accountId: String(r.account_id) }))
      .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? 1 : BigInt(a.id) > BigInt(b.id) ? -1 : 0));
  }

  /** Which of `accountIds` are already on the list. */
  async membersAmong(listId: string, accountIds: readonly string[], db: Kysely<DB> = this.#db): Promise<Set<string>> {
    if (accountIds.length === 0) return new Set();
    const rows = await db
      .selectFrom("list_accounts")
      .select("account_id")
      .where("list_id", "=", listId)
      .where("account_id", "in", accountIds)
      .execute();
    return new Set(rows.map((r) => String(r.account_id)));
  }

  /** `ownerId`'s follows of `targetIds`: target account id to follow id. */
  async followsOf(
    ownerId: string,
    targetIds: readonly string[],
    db: Kysely<DB> = this.#db,
  ): Promise<Map<string, string>> {
    if (targetIds.length === 0) return new Map();
    let q = db
      .selectFrom("follows")
      .select(["id", "target_account_id"])
      .where("account_id", "=", ownerId)
      .where("target_account_id", "in", targetIds);
    // On PostgreSQL the follows stay locked until the caller's transaction ends: an unfollow or
    // a block running meanwhile waits and then cascades to the new membership, instead of
    // removing the follow between this read and the insert (a foreign-key violation, a 500).
    if (this.#dialect === "postgres") q = q.forShare();
    const rows = await q.execute();
    return new Map(rows.map((r) => [String(r.target_account_id), String(r.id)]));
  }

  /**
   * Adds a member; false when it is on the list already (a concurrent add won the unique index,
   * which is no error here, so PostgreSQL's transaction stays usable).
   */
  async insertMember(
    row: { id: string; list_id: string; account_id: string; follow_id: string | null },
    db: Kysely<DB> = this.#db,
  ): Promise<boolean> {
    const r = await db
      .insertInto("list_accounts")
      .values(row)
      .onConflict((oc) => oc.columns(["list_id", "account_id"]).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Takes accounts off a list, and their posts and boosts out of its timeline. */
  async removeMembers(listId: string, accountIds: readonly string[], db: Kysely<DB> = this.#db): Promise<void> {
    if (accountIds.length === 0) return;
    await db.deleteFrom("list_accounts").where("list_id", "=", listId).where("account_id", "in", accountIds).execute();
    await db
      .deleteFrom("list_feeds")
      .where("list_id", "=", listId)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("statuses as s")
            .select(sql`1`.as("one"))
            .whereRef("s.id", "=", "list_feeds.status_id")
            .where("s.account_id", "in", accountIds),
        ),
      )
      .execute();
  }

  /**
   * Takes `targetId` off every list of `ownerId`, and their posts and boosts out of those lists'
   * timelines (what ending a follow does).
   */
  async removeFromOwnersLists(ownerId: string, targetId: string, db: Kysely<DB> = this.#db): Promise<void> {
    const owned = db.selectFrom("lists").select("id").where("account_id", "=", ownerId);
    await db.deleteFrom("list_accounts").where("list_id", "in", owned).where("account_id", "=", targetId).execute();
    await sql`DELETE FROM list_feeds WHERE list_id IN (SELECT id FROM lists WHERE account_id = ${ownerId})
      AND EXISTS (SELECT 1 FROM statuses s WHERE s.id = list_feeds.status_id AND s.account_id = ${targetId})`.execute(
      db,
    );
  }

  /**
   * Takes `targetId`'s posts and boosts, boosts of their posts, and posts (or boosts of posts)
   * mentioning them out of every list timeline of `ownerId` (Mastodon's `clear_from_lists`, on
   * a block or a mute).
   */
  async clearFromOwnersListFeeds(ownerId: string, targetId: string, db: Kysely<DB> = this.#db): Promise<void> {
    await sql`DELETE FROM list_feeds WHERE list_id IN (SELECT id FROM lists WHERE account_id = ${ownerId}) AND (
        EXISTS (SELECT 1 FROM statuses s WHERE s.id = list_feeds.status_id AND s.account_id = ${targetId})
        OR (list_feeds.reblog_of_id IS NOT NULL
          AND EXISTS (SELECT 1 FROM statuses o WHERE o.id = list_feeds.reblog_of_id AND o.account_id = ${targetId}))
        OR EXISTS (SELECT 1 FROM mentions m WHERE m.account_id = ${targetId}
          AND (m.status_id = list_feeds.status_id OR m.status_id = list_feeds.reblog_of_id)))`.execute(db);
  }

  /** `ownerId`'s lists that hold `accountId`, oldest first. */
  async listsContaining(ownerId: string, accountId: string): Promise<List[]> {
    const rows = await this.#db
      .selectFrom("lists")
      .innerJoin("list_accounts", "list_accounts.list_id", "lists.id")
      .selectAll("lists")
      .where("lists.account_id", "=", ownerId)
      .where("list_accounts.account_id", "=", accountId)
      .orderBy("lists.id", "asc")
      .execute();
    return rows.map(toList);
  }

  /** Whether any list holds the account (a status of someone in no list has no list fan-out). */
  async isListed(accountId: string): Promise<boolean> {
    const [row] = await selectShaped(this.#db, "lists.isListed", [accountId, 1], () =>
      this.#db.selectFrom("list_accounts").select("list_id").where("account_id", "=", accountId).limit(1),
    );
    return row !== undefined;
  }

  /**
   * Puts a new status into the timelines of the lists holding its author that should show it (see
   * `eligible`), in one statement. Running it twice changes nothing. Answers how many were added.
   */
  async fanOut(statusId: string, db: Kysely<DB> = this.#db): Promise<number> {
    const r = await sql`INSERT INTO list_feeds (list_id, status_id, reblog_of_id)
      SELECT l.id, s.id, s.reblog_of_id
      FROM statuses s
      JOIN list_accounts la ON la.account_id = s.account_id
      JOIN lists l ON l.id = la.list_id
      LEFT JOIN statuses o ON o.id = s.reblog_of_id
      WHERE s.id = ${statusId} AND ${eligible(new Date().toISOString())}
      ON CONFLICT (list_id, status_id) DO NOTHING`.execute(db);
    return Number(r.numAffectedRows ?? 0);
  }

  /**
   * Back-fills a list's timeline with a member's newest `limit` statuses that it should show (as
   * Mastodon's merge into a list), in one statement.
   */
  async backfill(listId: string, accountId: string, limit: number, db: Kysely<DB> = this.#db): Promise<void> {
    await sql`INSERT INTO list_feeds (list_id, status_id, reblog_of_id)
      SELECT l.id, s.id, s.reblog_of_id
      FROM (SELECT r.id FROM statuses r WHERE r.account_id = ${accountId} AND r.deleted_at IS NULL
          AND r.visibility IN ('public', 'unlisted', 'private')
          ORDER BY r.id DESC LIMIT ${limit}) recent
      JOIN statuses s ON s.id = recent.id
      JOIN lists l ON l.id = ${listId}
      JOIN list_accounts la ON la.list_id = l.id AND la.account_id = s.account_id
      LEFT JOIN statuses o ON o.id = s.reblog_of_id
      WHERE ${eligible(new Date().toISOString())}
      ON CONFLICT (list_id, status_id) DO NOTHING`.execute(db);
  }

  /**
   * Trims the list timelines holding `statusId` to their newest `cap` entries, once they hold more
   * than `cap + cap/20` (as the home feeds' trim): which lists are over that mark is found by
   * walking each one's key from the newest end, and each loses what lies past the cap in a short
   * statement of its own (ranking every entry of every list holding the status took several ms
   * per post for an author in 30 lists, all of it on SQLite's one connection).
   */
  async trimFeedsOf(statusId: string, cap: number, db: Kysely<DB> = this.#db): Promise<void> {
    const slack = Math.floor(cap / 20);
    const over = await sql<{ id: string | number }>`SELECT h.list_id AS id FROM list_feeds h
      WHERE h.status_id = ${statusId}
        AND (SELECT o.status_id FROM list_feeds o WHERE o.list_id = h.list_id
          ORDER BY o.status_id DESC LIMIT 1 OFFSET ${cap + slack}) IS NOT NULL`.execute(db);
    for (const { id } of over.rows) {
      const listId = String(id);
      await sql`DELETE FROM list_feeds WHERE list_id = ${listId} AND status_id <= (
        SELECT b.status_id FROM list_feeds b WHERE b.list_id = ${listId}
        ORDER BY b.status_id DESC LIMIT 1 OFFSET ${cap})`.execute(db);
    }
  }

  /** Trims one list timeline to its newest `cap` entries. */
  async trimList(listId: string, cap: number, db: Kysely<DB> = this.#db): Promise<void> {
    await sql`DELETE FROM list_feeds WHERE list_id = ${listId} AND status_id IN (
      SELECT ranked.status_id FROM (
        SELECT f.status_id, ROW_NUMBER() OVER (ORDER BY f.status_id DESC) AS position
        FROM list_feeds f WHERE f.list_id = ${listId}
      ) ranked
      WHERE ranked.position > ${cap})`.execute(db);
  }

  /**
   * Takes a status out of the home feeds of accounts with an exclusive list holding its author
   * (or booster), the author's own feed excepted, as Mastodon's home filter does.
   */
  async removeFromExclusiveHomes(statusId: string, db: Kysely<DB> = this.#db): Promise<void> {
    await sql`DELETE FROM feeds WHERE status_id = ${statusId} AND account_id IN (
      SELECT l.account_id FROM statuses s
      JOIN list_accounts la ON la.account_id = s.account_id
      JOIN lists l ON l.id = la.list_id
      WHERE s.id = ${statusId} AND l.exclusive = TRUE AND l.account_id <> s.account_id)`.execute(db);
  }

  /** Takes a status out of every list timeline. */
  async removeStatus(statusId: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db.deleteFrom("list_feeds").where("status_id", "=", statusId).execute();
  }

  /** One page of a list timeline: status ids, newest first. */
  async page(listId: string, window: IdWindow): Promise<string[]> {
    let q = this.#db.selectFrom("list_feeds").select("status_id").where("list_id", "=", listId);
    q = applyWindow(q, "status_id", window);
    const rows = await q.orderBy("status_id", idWindowOrder(window)).limit(window.limit).execute();
    return rows
      .map((r) => String(r.status_id))
      .sort((a, b) => (BigInt(a) < BigInt(b) ? 1 : BigInt(a) > BigInt(b) ? -1 : 0));
  }
}
