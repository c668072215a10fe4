import { type Kysely, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { DB } from "../schema.ts";
import { searchableAccountCondition } from "./accounts.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";
import { domainHiddenCondition } from "./relationships.ts";

/** One entry of a page of accounts, with the row id that pages it (follow or request id). */
export interface AccountPageRow {
  id: string;
  accountId: string;
}

/**
 * Accounts a viewer is not shown in someone's followers or following list: those the viewer
 * blocks, is blocked by or mutes (a live mute), as Mastodon's `not_excluded_by_account`, and those
 * of a domain the viewer blocks (unless followed), as its `not_domain_blocked_by_account`.
 */
function notExcludedBy(viewerId: string, column: string, now: string) {
  const c = sql.ref(column);
  return sql<boolean>`(NOT EXISTS (SELECT 1 FROM blocks b WHERE b.account_id = ${viewerId} AND b.target_account_id = ${c})
    AND NOT EXISTS (SELECT 1 FROM blocks b2 WHERE b2.account_id = ${c} AND b2.target_account_id = ${viewerId})
    AND NOT EXISTS (SELECT 1 FROM mutes m WHERE m.account_id = ${viewerId} AND m.target_account_id = ${c}
      AND (m.expires_at IS NULL OR m.expires_at > ${now}))
    AND NOT ${domainHiddenCondition(viewerId, c)})`;
}

/**
 * The paged lists of the social graph: an account's followers and follows, the follow requests
 * it received, and the familiar followers of accounts (reads only; `FollowsRepository` writes).
 */
export class FollowPagesRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /**
   * One page of the followers (`side` "followers": who follows `accountId`) or of the follows
   * (`side` "following") of an account, by follow id, newest first. Only accounts that may be
   * listed (public, not suspended); with `viewerId`, not those the viewer blocks, mutes or is
   * blocked by.
   */
  async page(
    side: "followers" | "following",
    accountId: string,
    window: IdWindow,
    viewerId: string | undefined,
  ): Promise<AccountPageRow[]> {
    const [own, other] =
      side === "followers"
        ? (["target_account_id", "account_id"] as const)
        : (["account_id", "target_account_id"] as const);
    let q = this.#db
      .selectFrom("follows")
      .innerJoin("accounts", "accounts.id", `follows.${other}`)
      .select(["follows.id as id", `follows.${other} as other`])
      .where(`follows.${own}`, "=", accountId)
      .where(searchableAccountCondition());
    if (viewerId !== undefined) q = q.where(notExcludedBy(viewerId, `follows.${other}`, new Date().toISOString()));
    q = applyWindow(q, "follows.id", window);
    const rows = await q.orderBy("follows.id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map((r) => ({ id: String(r.id), accountId: String(r.other) })));
  }

  /** One page of the follow requests `targetId` received, by request id, newest first. */
  async requestsPage(targetId: string, window: IdWindow): Promise<AccountPageRow[]> {
    let q = this.#db
      .selectFrom("follow_requests")
      .innerJoin("accounts", "accounts.id", "follow_requests.account_id")
      .select(["follow_requests.id as id", "follow_requests.account_id as other"])
      .where("follow_requests.target_account_id", "=", targetId)
      .where(searchableAccountCondition());
    q = applyWindow(q, "follow_requests.id", window);
    const rows = await q.orderBy("follow_requests.id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map((r) => ({ id: String(r.id), accountId: String(r.other) })));
  }

  /**
   * For each of `targetIds`, the accounts `viewerId` follows that follow it (accounts hiding
   * their network left out), as Mastodon's familiar followers.
   */
  async familiarFollowers(viewerId: string, targetIds: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (targetIds.length === 0) return out;
    const rows = await this.#db
      .selectFrom("follows as f")
      .innerJoin("follows as mine", "mine.target_account_id", "f.account_id")
      .innerJoin("accounts", "accounts.id", "f.account_id")
      .select(["f.target_account_id as target", "f.account_id as familiar"])
      .where("mine.account_id", "=", viewerId)
      .where("f.target_account_id", "in", targetIds)
      .where((eb) => eb.or([eb("accounts.hide_collections", "is", null), eb("accounts.hide_collections", "=", false)]))
      .where(searchableAccountCondition())
      .orderBy("f.id", "desc")
      .execute();
    for (const r of rows) {
      const list = out.get(String(r.target)) ?? [];
      list.push(String(r.familiar));
      out.set(String(r.target), list);
    }
    return out;
  }
}
