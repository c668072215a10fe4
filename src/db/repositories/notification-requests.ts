import { type Kysely, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { DB, NotificationPolicyValue } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";

/** The five categories of a notification policy (Mastodon's `for_*` keys). */
export const POLICY_CATEGORIES = [
  "for_not_following",
  "for_not_followers",
  "for_new_accounts",
  "for_private_mentions",
  "for_limited_accounts",
] as const;

export type PolicyCategory = (typeof POLICY_CATEGORIES)[number];
export type NotificationPolicy = Record<PolicyCategory, NotificationPolicyValue>;

/**
 * The policy of an account that never set one: everything accepted (a departure from Mastodon, see
 * docs/design.md) but silenced accounts, filtered as Mastodon does (a silenced account's
 * notifications stay out of the lists of those who do not follow it, docs/moderation.md).
 */
export const DEFAULT_POLICY: NotificationPolicy = {
  for_not_following: "accept",
  for_not_followers: "accept",
  for_new_accounts: "accept",
  for_private_mentions: "accept",
  for_limited_accounts: "filter",
};

export interface NotificationRequest {
  id: string;
  accountId: string;
  fromAccountId: string;
  lastStatusId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What the policy needs to know of a sender, from the recipient's side. */
export interface SenderFacts {
  /** The recipient follows the sender. */
  following: boolean;
  /** When the sender began following the recipient, if they do. */
  followerSince: string | null;
  /** The recipient accepted a request from the sender (Mastodon's NotificationPermission). */
  permitted: boolean;
}

/** The filtered notifications a request holds: mentions (Mastodon counts those only). */
const REQUEST_TYPE = "mention";

/**
 * On `notification_requests`: pending, i.e. from an account not suspended and still holding a
 * filtered mention (the list and the policy's summary show those only).
 */
const pending = sql<boolean>`(EXISTS (SELECT 1 FROM accounts pa WHERE pa.id = notification_requests.from_account_id
    AND pa.suspended_at IS NULL)
  AND EXISTS (SELECT 1 FROM notifications pn WHERE pn.account_id = notification_requests.account_id
    AND pn.from_account_id = notification_requests.from_account_id AND pn.filtered = TRUE AND pn.type = ${REQUEST_TYPE}))`;

const toRequest = (r: {
  id: string;
  account_id: string;
  from_account_id: string;
  last_status_id: string | null;
  created_at: string;
  updated_at: string;
}): NotificationRequest => ({
  id: String(r.id),
  accountId: String(r.account_id),
  fromAccountId: String(r.from_account_id),
  lastStatusId: r.last_status_id === null ? null : String(r.last_status_id),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** All SQL on `notification_policies`, `notification_requests` and `notification_permissions`. */
export class NotificationRequestsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** The account's policy; the default when it never set one. */
  async policy(accountId: string): Promise<NotificationPolicy> {
    const r = await this.#db
      .selectFrom("notification_policies")
      .select(POLICY_CATEGORIES)
      .where("account_id", "=", accountId)
      .executeTakeFirst();
    return r ? { ...r } : { ...DEFAULT_POLICY };
  }

  /** Sets the given categories of the account's policy (the others keep their value). */
  async updatePolicy(accountId: string, changes: Partial<NotificationPolicy>, now: string): Promise<void> {
    await this.#db
      .insertInto("notification_policies")
      .values({ account_id: accountId, ...DEFAULT_POLICY, ...changes, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column("account_id").doUpdateSet({ ...changes, updated_at: now }))
      .execute();
  }

  /** Whether the recipient follows the sender, since when the sender follows the recipient, and any permission. */
  async senderFacts(recipientId: string, senderId: string): Promise<SenderFacts> {
    const r = await sql<{ following: number | string; follower_since: string | null; permitted: number | string }>`
      SELECT
        (SELECT COUNT(*) FROM follows WHERE account_id = ${recipientId} AND target_account_id = ${senderId}) AS following,
        (SELECT MIN(created_at) FROM follows WHERE account_id = ${senderId} AND target_account_id = ${recipientId}) AS follower_since,
        (SELECT COUNT(*) FROM notification_permissions WHERE account_id = ${recipientId} AND from_account_id = ${senderId}) AS permitted
    `.execute(this.#db);
    const row = r.rows[0];
    return {
      following: Number(row?.following ?? 0) > 0,
      followerSince: row?.follower_since ?? null,
      permitted: Number(row?.permitted ?? 0) > 0,
    };
  }

  /**
   * Whether a private mention answers the recipient: among the (at most 100) ancestors from
   * `inReplyToId` up, a direct post by the recipient that mentions the sender (not silently), as
   * Mastodon's `response_to_recipient?`.
   */
  async answersRecipient(inReplyToId: string, recipientId: string, senderId: string): Promise<boolean> {
    const r = await sql<{ n: number | string }>`WITH RECURSIVE anc(id, in_reply_to_id, depth) AS (
        SELECT id, in_reply_to_id, 0 FROM statuses WHERE id = ${inReplyToId}
        UNION ALL
        SELECT s.id, s.in_reply_to_id, anc.depth + 1 FROM statuses s JOIN anc ON s.id = anc.in_reply_to_id
        WHERE anc.depth < 100
      ) SELECT COUNT(*) AS n FROM anc JOIN statuses s ON s.id = anc.id
      WHERE s.account_id = ${recipientId} AND s.visibility = 'direct' AND s.deleted_at IS NULL
        AND EXISTS (SELECT 1 FROM mentions m WHERE m.status_id = s.id AND m.account_id = ${senderId} AND m.silent = FALSE)`.execute(
      this.#db,
    );
    return Number(r.rows[0]?.n ?? 0) > 0;
  }

  /**
   * Records a filtered mention in the sender's request (made on the first one): its post becomes
   * the request's `last_status` when newer, and `notifications_count` is counted again.
   */
  async recordFiltered(row: {
    id: string;
    accountId: string;
    fromAccountId: string;
    lastStatusId: string | null;
    now: string;
  }): Promise<void> {
    await this.#db
      .insertInto("notification_requests")
      .values({
        id: row.id,
        account_id: row.accountId,
        from_account_id: row.fromAccountId,
        last_status_id: row.lastStatusId,
        created_at: row.now,
        updated_at: row.now,
      })
      // Jobs may run out of order: the newest post stays the request's last one.
      .onConflict((oc) =>
        oc.columns(["account_id", "from_account_id"]).doUpdateSet({
          last_status_id: sql<string>`CASE WHEN notification_requests.last_status_id IS NULL
            OR excluded.last_status_id > notification_requests.last_status_id
            THEN excluded.last_status_id ELSE notification_requests.last_status_id END`,
          updated_at: row.now,
        }),
      )
      .execute();
    await sql`UPDATE notification_requests SET notifications_count = (
        SELECT COUNT(*) FROM notifications n WHERE n.account_id = ${row.accountId}
          AND n.from_account_id = ${row.fromAccountId} AND n.filtered = TRUE AND n.type = ${REQUEST_TYPE})
      WHERE account_id = ${row.accountId} AND from_account_id = ${row.fromAccountId}`.execute(this.#db);
  }

  /**
   * One page of the account's pending requests, newest first: from accounts not suspended, still
   * holding a filtered mention (deleting a post deletes its notifications; Mastodon then drops
   * the request as it reconsiders its existence).
   */
  async page(accountId: string, window: IdWindow): Promise<NotificationRequest[]> {
    const q = applyWindow(
      this.#db
        .selectFrom("notification_requests")
        .selectAll("notification_requests")
        .where("notification_requests.account_id", "=", accountId)
        .where(pending),
      "notification_requests.id",
      window,
    );
    const rows = await q.orderBy("notification_requests.id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(toRequest));
  }

  /** The account's requests among these ids. */
  async getMany(accountId: string, ids: readonly string[]): Promise<NotificationRequest[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db
      .selectFrom("notification_requests")
      .selectAll()
      .where("account_id", "=", accountId)
      .where("id", "in", ids)
      .execute();
    return rows.map(toRequest);
  }

  /** How many filtered mentions each sender's request holds, live. */
  async counts(accountId: string, fromAccountIds: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (fromAccountIds.length === 0) return out;
    const rows = await this.#db
      .selectFrom("notifications")
      .select(["from_account_id", (eb) => eb.fn.countAll<number | string>().as("n")])
      .where("account_id", "=", accountId)
      .where("from_account_id", "in", fromAccountIds)
      .where("filtered", "=", true)
      .where("type", "=", REQUEST_TYPE)
      .groupBy("from_account_id")
      .execute();
    for (const r of rows) out.set(String(r.from_account_id), Number(r.n));
    return out;
  }

  /** The policy's summary: pending requests (from accounts not suspended) and the mentions they hold. */
  async summary(accountId: string): Promise<{ requests: number; notifications: number }> {
    const r = await sql<{ requests: number | string; notifications: number | string }>`SELECT
        (SELECT COUNT(*) FROM notification_requests WHERE account_id = ${accountId} AND ${pending}) AS requests,
        (SELECT COUNT(*) FROM notifications n JOIN notification_requests
            ON notification_requests.account_id = n.account_id AND notification_requests.from_account_id = n.from_account_id
          WHERE n.account_id = ${accountId} AND n.filtered = TRUE AND n.type = ${REQUEST_TYPE}
            AND ${pending}) AS notifications`.execute(this.#db);
    return { requests: Number(r.rows[0]?.requests ?? 0), notifications: Number(r.rows[0]?.notifications ?? 0) };
  }

  /** The posts of the filtered mentions these requests hold (to add to conversations on accept). */
  async filteredMentionStatusIds(requests: readonly NotificationRequest[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    for (const r of requests) {
      const rows = await this.#db
        .selectFrom("notifications")
        .select("status_id")
        .where("account_id", "=", r.accountId)
        .where("from_account_id", "=", r.fromAccountId)
        .where("filtered", "=", true)
        .where("type", "=", REQUEST_TYPE)
        .orderBy("id")
        .execute();
      out.set(
        r.id,
        rows.flatMap((x) => (x.status_id === null ? [] : [String(x.status_id)])),
      );
    }
    return out;
  }

  /**
   * Accepts requests (Mastodon's AcceptNotificationRequestService, merged at once): their senders
   * are never filtered again, their filtered notifications join the normal list, the requests go.
   */
  async accept(requests: readonly NotificationRequest[], newId: () => string, now: string): Promise<void> {
    if (requests.length === 0) return;
    await this.#db.transaction().execute(async (trx) => {
      for (const r of requests) {
        await trx
          .insertInto("notification_permissions")
          .values({ id: newId(), account_id: r.accountId, from_account_id: r.fromAccountId, created_at: now })
          .onConflict((oc) => oc.columns(["account_id", "from_account_id"]).doNothing())
          .execute();
        await trx
          .updateTable("notifications")
          .set({ filtered: false })
          .where("account_id", "=", r.accountId)
          .where("from_account_id", "=", r.fromAccountId)
          .where("filtered", "=", true)
          .execute();
        await trx.deleteFrom("notification_requests").where("id", "=", r.id).execute();
      }
    });
  }

  /** Dismisses requests: they and their senders' filtered notifications are deleted. */
  async dismiss(requests: readonly NotificationRequest[]): Promise<void> {
    if (requests.length === 0) return;
    await this.#db.transaction().execute(async (trx) => {
      for (const r of requests) {
        await trx
          .deleteFrom("notifications")
          .where("account_id", "=", r.accountId)
          .where("from_account_id", "=", r.fromAccountId)
          .where("filtered", "=", true)
          .execute();
        await trx.deleteFrom("notification_requests").where("id", "=", r.id).execute();
      }
    });
  }
}
