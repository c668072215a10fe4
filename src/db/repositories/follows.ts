import { type Kysely, sql } from "kysely";
import type { DialectName } from "../database.ts";
import type { DB } from "../schema.ts";
import { selectShaped } from "./query-shapes.ts";

/** A follow or a follow request, with its options. */
export interface FollowRow {
  id: string;
  accountId: string;
  targetAccountId: string;
  showReblogs: boolean;
  notify: boolean;
  languages: string[] | null;
  /** The Follow activity's id (remote follows, and local accounts' follows of remote ones). */
  uri: string | null;
}

/** The options of a follow or request (`undefined`: keep what is stored). */
export interface FollowOptions {
  showReblogs?: boolean;
  notify?: boolean;
  languages?: string[] | null;
}

type FollowTable = "follows" | "follow_requests";

const toRow = (r: {
  id: string;
  account_id: string;
  target_account_id: string;
  show_reblogs: boolean | number;
  notify: boolean | number;
  languages: string | null;
  uri: string | null;
}): FollowRow => ({
  id: String(r.id),
  accountId: String(r.account_id),
  targetAccountId: String(r.target_account_id),
  showReblogs: Boolean(r.show_reblogs),
  notify: Boolean(r.notify),
  languages: r.languages ? (JSON.parse(r.languages) as string[]) : null,
  uri: r.uri,
});

const languagesColumn = (l: string[] | null | undefined) =>
  l === undefined ? undefined : l === null ? null : JSON.stringify(l);

/**
 * All SQL on `follows` and `follow_requests`. Creating and removing a follow keeps the two
 * accounts' `following_count` and `followers_count` in step, in the same statement's
 * transaction when one is given; removing a follow or request removes the notification it caused.
 */
export class FollowsRepository {
  readonly #db: Kysely<DB>;
  readonly #dialect: DialectName;
  constructor(db: Kysely<DB>, dialect: DialectName) {
    this.#db = db;
    this.#dialect = dialect;
  }

  /**
   * On PostgreSQL, locks the two accounts' rows (in id order) until the transaction ends, as
   * the counter update would (`FOR NO KEY UPDATE`, so foreign-key checks are not held up). Every
   * transaction that changes the follows between two accounts (follow, unfollow, removal from
   * followers, acceptance, block) starts with it, so they run one after the other: without it a
   * follow checked against blocks before a concurrent block committed was inserted after that
   * block had severed the follows, and both stood; and two transactions updating the counters
   * in opposite orders deadlocked. SQLite runs one transaction at a time already.
   */
  async lockPair(a: string, b: string, db: Kysely<DB>): Promise<void> {
    if (this.#dialect !== "postgres") return;
    await db.selectFrom("accounts").select("id").where("id", "in", [a, b]).orderBy("id").forNoKeyUpdate().execute();
  }

  /** Whether either account blocks the other, read in `db` (the caller's transaction). */
  async blockedEitherWay(a: string, b: string, db: Kysely<DB> = this.#db): Promise<boolean> {
    const r = await db
      .selectFrom("blocks")
      .select("id")
      .where((eb) =>
        eb.or([
          eb.and([eb("account_id", "=", a), eb("target_account_id", "=", b)]),
          eb.and([eb("account_id", "=", b), eb("target_account_id", "=", a)]),
        ]),
      )
      .limit(1)
      .executeTakeFirst();
    return r !== undefined;
  }

  async #get(table: FollowTable, accountId: string, targetId: string, db: Kysely<DB>): Promise<FollowRow | undefined> {
    const r = await db
      .selectFrom(table)
      .select(["id", "account_id", "target_account_id", "show_reblogs", "notify", "languages", "uri"])
      .where("account_id", "=", accountId)
      .where("target_account_id", "=", targetId)
      .executeTakeFirst();
    return r && toRow(r);
  }

  /** The follow request whose activity id (`uri`) is `uri`, if any. */
  async requestByUri(uri: string): Promise<FollowRow | undefined> {
    const r = await this.#db
      .selectFrom("follow_requests")
      .select(["id", "account_id", "target_account_id", "show_reblogs", "notify", "languages", "uri"])
      .where("uri", "=", uri)
      .executeTakeFirst();
    return r && toRow(r);
  }

  /** The account `accountId` follows (or asked to) through the activity `uri`, if any. */
  async targetByUri(table: FollowTable, accountId: string, uri: string): Promise<string | undefined> {
    const r = await this.#db
      .selectFrom(table)
      .select("target_account_id")
      .where("account_id", "=", accountId)
      .where("uri", "=", uri)
      .executeTakeFirst();
    return r ? String(r.target_account_id) : undefined;
  }

  /** A follow or request by its id. */
  async byId(table: FollowTable, id: string): Promise<FollowRow | undefined> {
    if (!/^\d{1,19}$/.test(id)) return undefined;
    const r = await this.#db
      .selectFrom(table)
      .select(["id", "account_id", "target_account_id", "show_reblogs", "notify", "languages", "uri"])
      .where("id", "=", id)
      .executeTakeFirst();
    return r && toRow(r);
  }

  getFollow(accountId: string, targetId: string, db: Kysely<DB> = this.#db): Promise<FollowRow | undefined> {
    return this.#get("follows", accountId, targetId, db);
  }

  getRequest(accountId: string, targetId: string, db: Kysely<DB> = this.#db): Promise<FollowRow | undefined> {
    return this.#get("follow_requests", accountId, targetId, db);
  }

  async #adjustCounts(accountId: string, targetId: string, delta: number, db: Kysely<DB>): Promise<void> {
    const bump = (col: "following_count" | "followers_count") =>
      sql<number>`CASE WHEN ${sql.ref(col)} + ${delta} < 0 THEN 0 ELSE ${sql.ref(col)} + ${delta} END`;
    // Both rows in id order first (held already when the caller took `lockPair`).
    await this.lockPair(accountId, targetId, db);
    await db
      .updateTable("accounts")
      .set({ following_count: bump("following_count") })
      .where("id", "=", accountId)
      .execute();
    await db
      .updateTable("accounts")
      .set({ followers_count: bump("followers_count") })
      .where("id", "=", targetId)
      .execute();
  }

  /**
   * Records that `account_id` follows `target_account_id` (nothing happens when it already does)
   * and counts it; answers whether it was new.
   */
  async insert(
    row: {
      id: string;
      account_id: string;
      target_account_id: string;
      uri?: string | null;
      show_reblogs?: boolean;
      notify?: boolean;
      languages?: string[] | null;
      created_at: string;
    },
    db: Kysely<DB> = this.#db,
  ): Promise<boolean> {
    const { languages, ...rest } = row;
    const r = await db
      .insertInto("follows")
      .values({ ...rest, languages: languagesColumn(languages) ?? null, updated_at: row.created_at })
      .onConflict((oc) => oc.columns(["account_id", "target_account_id"]).doNothing())
      .executeTakeFirst();
    const added = Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
    if (added) await this.#adjustCounts(row.account_id, row.target_account_id, 1, db);
    return added;
  }

  /** Records a follow request (nothing happens when one exists); answers whether it was new. */
  async insertRequest(
    row: {
      id: string;
      account_id: string;
      target_account_id: string;
      show_reblogs: boolean;
      notify: boolean;
      languages: string[] | null;
      /** The Follow activity's id, for a remote follower (answered in Accept or Reject). */
      uri?: string | null;
      created_at: string;
    },
    db: Kysely<DB> = this.#db,
  ): Promise<boolean> {
    const r = await db
      .insertInto("follow_requests")
      .values({ ...row, languages: languagesColumn(row.languages) ?? null, updated_at: row.created_at })
      .onConflict((oc) => oc.columns(["account_id", "target_account_id"]).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Changes the options of a follow or request that exists. */
  async updateOptions(table: FollowTable, id: string, opts: FollowOptions, db: Kysely<DB> = this.#db): Promise<void> {
    const patch: { show_reblogs?: boolean; notify?: boolean; languages?: string | null; updated_at: string } = {
      updated_at: new Date().toISOString(),
    };
    if (opts.showReblogs !== undefined) patch.show_reblogs = opts.showReblogs;
    if (opts.notify !== undefined) patch.notify = opts.notify;
    if (opts.languages !== undefined) patch.languages = languagesColumn(opts.languages);
    await db.updateTable(table).set(patch).where("id", "=", id).execute();
  }

  /**
   * Ends a follow (uncounting it, removing its `follow` notification and the follower's
   * endorsement of the account, as Mastodon's `Follow#remove_endorsements`); answers the removed
   * row. Every way a follow ends (unfollow, remove_from_followers, block, deletion) comes here.
   */
  async delete(accountId: string, targetId: string, db: Kysely<DB> = this.#db): Promise<FollowRow | undefined> {
    const r = await db
      .deleteFrom("follows")
      .where("account_id", "=", accountId)
      .where("target_account_id", "=", targetId)
      .returning(["id", "account_id", "target_account_id", "show_reblogs", "notify", "languages", "uri"])
      .executeTakeFirst();
    if (!r) return undefined;
    await this.#adjustCounts(accountId, targetId, -1, db);
    await db.deleteFrom("notifications").where("type", "=", "follow").where("activity_id", "=", String(r.id)).execute();
    await db
      .deleteFrom("account_pins")
      .where("account_id", "=", accountId)
      .where("target_account_id", "=", targetId)
      .execute();
    return toRow(r);
  }

  /** Removes a follow request and its `follow_request` notification; answers the removed row. */
  async deleteRequest(accountId: string, targetId: string, db: Kysely<DB> = this.#db): Promise<FollowRow | undefined> {
    const r = await db
      .deleteFrom("follow_requests")
      .where("account_id", "=", accountId)
      .where("target_account_id", "=", targetId)
      .returning(["id", "account_id", "target_account_id", "show_reblogs", "notify", "languages", "uri"])
      .executeTakeFirst();
    if (!r) return undefined;
    await db
      .deleteFrom("notifications")
      .where("type", "=", "follow_request")
      .where("activity_id", "=", String(r.id))
      .execute();
    return toRow(r);
  }

  /** Ends the follows and follow requests between two accounts, both ways (a block severs them). */
  async severBetween(a: string, b: string, db: Kysely<DB> = this.#db): Promise<void> {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ]) {
      await this.delete(x, y, db);
      await this.deleteRequest(x, y, db);
    }
  }

  /**
   * The follows and follow requests between `accountId` and accounts of `domain`, each way, with
   * their `Follow` ids: what `severWithDomain` is about to end, for the activities that tell the
   * other servers (Undo of our follows, Reject of theirs).
   */
  async pairsWithDomain(
    accountId: string,
    domain: string,
    db: Kysely<DB> = this.#db,
  ): Promise<{
    outgoing: { otherId: string; uri: string | null }[];
    incoming: { otherId: string; uri: string | null }[];
  }> {
    const onDomain = sql`(SELECT da.id FROM accounts da WHERE da.domain = ${domain})`;
    const out = {
      outgoing: [] as { otherId: string; uri: string | null }[],
      incoming: [] as { otherId: string; uri: string | null }[],
    };
    for (const table of ["follows", "follow_requests"] as const) {
      const rows = await sql<{ account_id: string | number; target_account_id: string | number; uri: string | null }>`
        SELECT f.account_id, f.target_account_id, f.uri FROM ${sql.table(table)} f
        WHERE (f.account_id = ${accountId} AND f.target_account_id IN ${onDomain})
          OR (f.target_account_id = ${accountId} AND f.account_id IN ${onDomain})`.execute(db);
      for (const r of rows.rows) {
        if (String(r.account_id) === accountId) out.outgoing.push({ otherId: String(r.target_account_id), uri: r.uri });
        else out.incoming.push({ otherId: String(r.account_id), uri: r.uri });
      }
    }
    return out;
  }

  /**
   * Ends every follow and follow request between `accountId` and the accounts of `domain`, both
   * ways (a domain block), uncounting them on every account, in a fixed number of statements
   * however many there are. (Remote accounts have no notifications to clean up; the caller
   * deletes those they caused `accountId`.)
   */
  async severWithDomain(accountId: string, domain: string, db: Kysely<DB> = this.#db): Promise<void> {
    const onDomain = sql`(SELECT da.id FROM accounts da WHERE da.domain = ${domain})`;
    const r = await sql<{ following: number | string; followers: number | string }>`SELECT
        (SELECT COUNT(*) FROM follows f WHERE f.account_id = ${accountId} AND f.target_account_id IN ${onDomain}) AS following,
        (SELECT COUNT(*) FROM follows f WHERE f.target_account_id = ${accountId} AND f.account_id IN ${onDomain}) AS followers`.execute(
      db,
    );
    const following = Number(r.rows[0]?.following ?? 0);
    const followers = Number(r.rows[0]?.followers ?? 0);
    const minus = (col: "following_count" | "followers_count", n: number) =>
      sql<number>`CASE WHEN ${sql.ref(col)} - ${n} < 0 THEN 0 ELSE ${sql.ref(col)} - ${n} END`;
    if (following > 0 || followers > 0) {
      await db
        .updateTable("accounts")
        .set({
          following_count: minus("following_count", following),
          followers_count: minus("followers_count", followers),
        })
        .where("id", "=", accountId)
        .execute();
    }
    if (following > 0) {
      await db
        .updateTable("accounts")
        .set({ followers_count: minus("followers_count", 1) })
        .where("domain", "=", domain)
        .where("id", "in", (eb) =>
          eb.selectFrom("follows").select("target_account_id").where("account_id", "=", accountId),
        )
        .execute();
    }
    if (followers > 0) {
      await db
        .updateTable("accounts")
        .set({ following_count: minus("following_count", 1) })
        .where("domain", "=", domain)
        .where("id", "in", (eb) =>
          eb.selectFrom("follows").select("account_id").where("target_account_id", "=", accountId),
        )
        .execute();
    }
    for (const table of ["follows", "follow_requests"] as const) {
      await sql`DELETE FROM ${sql.table(table)} WHERE (account_id = ${accountId} AND target_account_id IN ${onDomain})
        OR (target_account_id = ${accountId} AND account_id IN ${onDomain})`.execute(db);
    }
  }

  /**
   * Ends every follow and follow request from or to `accountId` (a deleted account), uncounting
   * them on the other accounts.
   */
  async removeAllOf(accountId: string, db: Kysely<DB> = this.#db): Promise<void> {
    const dec = (col: "following_count" | "followers_count") =>
      sql<number>`CASE WHEN ${sql.ref(col)} > 0 THEN ${sql.ref(col)} - 1 ELSE 0 END`;
    await db
      .updateTable("accounts")
      .set({ followers_count: dec("followers_count") })
      .where("id", "in", (eb) =>
        eb.selectFrom("follows").select("target_account_id").where("account_id", "=", accountId),
      )
      .execute();
    await db
      .updateTable("accounts")
      .set({ following_count: dec("following_count") })
      .where("id", "in", (eb) =>
        eb.selectFrom("follows").select("account_id").where("target_account_id", "=", accountId),
      )
      .execute();
    // The endorsements go with the follows they stood on (both ways).
    for (const table of ["follows", "follow_requests", "account_pins"] as const) {
      await db
        .deleteFrom(table)
        .where((eb) => eb.or([eb("account_id", "=", accountId), eb("target_account_id", "=", accountId)]))
        .execute();
    }
  }

  /** A page of the local accounts following `targetId`, by follow id after `afterFollowId` (a Move). */
  async localFollowersPage(
    targetId: string,
    afterFollowId: string,
    limit: number,
  ): Promise<
    { followId: string; accountId: string; showReblogs: boolean; notify: boolean; languages: string[] | null }[]
  > {
    const rows = await this.#db
      .selectFrom("follows")
      .innerJoin("accounts", "accounts.id", "follows.account_id")
      .select([
        "follows.id",
        "follows.account_id",
        "follows.show_reblogs",
        "follows.notify",
        "follows.languages",
        "follows.uri",
      ])
      .where("follows.target_account_id", "=", targetId)
      .where("accounts.domain", "is", null)
      .where("follows.id", ">", afterFollowId)
      .orderBy("follows.id")
      .limit(limit)
      .execute();
    return rows.map((r) => {
      const row = toRow({ ...r, target_account_id: targetId });
      return {
        followId: row.id,
        accountId: row.accountId,
        showReblogs: row.showReblogs,
        notify: row.notify,
        languages: row.languages,
      };
    });
  }

  /** Which of `targetIds` `accountId` follows. */
  async followedAmong(accountId: string, targetIds: readonly string[]): Promise<Set<string>> {
    if (targetIds.length === 0) return new Set();
    const rows = await selectShaped(
      this.#db,
      `follows.followedAmong ${targetIds.length}`,
      [accountId, ...targetIds],
      () =>
        this.#db
          .selectFrom("follows")
          .select("target_account_id")
          .where("account_id", "=", accountId)
          .where("target_account_id", "in", targetIds),
    );
    return new Set(rows.map((r) => String(r.target_account_id)));
  }

  /**
   * The followers of `statusId`'s author who asked to be notified of their posts (`notify`) and
   * whose home feed holds it (so the home filters let it through: Mastodon notifies on feed insert).
   */
  async notifiedFollowersHolding(statusId: string): Promise<string[]> {
    const rows = await selectShaped(this.#db, "follows.notifiedFollowersHolding", [statusId, true], () =>
      this.#db
        .selectFrom("statuses")
        .innerJoin("follows", "follows.target_account_id", "statuses.account_id")
        .innerJoin("feeds", (j) =>
          j.onRef("feeds.account_id", "=", "follows.account_id").onRef("feeds.status_id", "=", "statuses.id"),
        )
        .select("follows.account_id")
        .where("statuses.id", "=", statusId)
        .where("follows.notify", "=", true),
    );
    return rows.map((r) => String(r.account_id));
  }
}
