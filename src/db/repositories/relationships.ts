import { type Kysely, type RawBuilder, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { DB } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";
import { selectShaped } from "./query-shapes.ts";

/** A mute that is in force: `expiresAt` null means forever. */
export interface MuteState {
  hideNotifications: boolean;
  expiresAt: string | null;
}

/** How one viewer relates, by blocks and mutes, to a set of accounts (expired mutes left out). */
export interface BlockMuteRelations {
  /** Accounts the viewer blocks. */
  blocking: Set<string>;
  /** Accounts that block the viewer. */
  blockedBy: Set<string>;
  /** Accounts the viewer mutes. */
  muting: Map<string, MuteState>;
  /** Accounts on a domain the viewer blocks (Relationship `domain_blocking`). */
  domainBlocking: Set<string>;
  /** Those of `domainBlocking` the viewer does not follow: hidden as a blocked account is. */
  domainHidden: Set<string>;
}

/** No relations (an anonymous viewer). */
export function noRelations(): BlockMuteRelations {
  return {
    blocking: new Set(),
    blockedBy: new Set(),
    muting: new Map(),
    domainBlocking: new Set(),
    domainHidden: new Set(),
  };
}

/** The viewer's follow of an account, as a Relationship shows it. */
export interface FollowState {
  showReblogs: boolean;
  notify: boolean;
  languages: string[] | null;
}

export interface BlockRow {
  id: string;
  targetAccountId: string;
}

export interface MuteRow extends BlockRow {
  expiresAt: string | null;
}

/** A live mute: no expiry, or one still ahead of `now`. */
const liveMute = (now: string) => sql<boolean>`(mutes.expires_at IS NULL OR mutes.expires_at > ${now})`;

/** An account id or a column holding one, in a condition below. */
type AccountOperand = string | RawBuilder<unknown>;

/**
 * Whether `account` is on a domain `viewer` blocks (user-level domain block) and `viewer` does not
 * follow it: such an account is then hidden from the viewer as an account they block is (Mastodon's
 * `domain_blocking?`; following an account overrides it, as in Mastodon's home feed and
 * notification filters; blocking a domain ends those follows and new ones are refused). The SQL
 * twin of `domainHidden` in `BlockMuteRelations`; a local account (no domain) never matches.
 */
export function domainHiddenCondition(viewer: AccountOperand, account: AccountOperand): RawBuilder<boolean> {
  return sql<boolean>`EXISTS (SELECT 1 FROM accounts dba JOIN account_domain_blocks dbb ON dbb.domain = dba.domain
    WHERE dba.id = ${account} AND dbb.account_id = ${viewer}
    AND NOT EXISTS (SELECT 1 FROM follows dbf WHERE dbf.account_id = ${viewer} AND dbf.target_account_id = ${account}))`;
}

/**
 * Mastodon's home filter, the SQL that every materialised feed (home fan-out and back-fill, list
 * and hashtag feeds) applies for a feed owner and a status `s` with its boosted post `o` (left
 * joined; null when `s` is no boost): nothing whose author, booster, boosted author or a
 * mentioned account the owner blocks or mutes (live mutes), nothing by someone who blocks the
 * owner, nothing from an unfollowed account of a domain the owner blocks.
 */
export function homeFilterAllows(owner: RawBuilder<unknown>, now: string): RawBuilder<boolean> {
  return sql<boolean>`(NOT EXISTS (SELECT 1 FROM blocks b WHERE b.account_id = ${owner}
      AND (b.target_account_id = s.account_id OR b.target_account_id = o.account_id
        OR EXISTS (SELECT 1 FROM mentions bm WHERE bm.account_id = b.target_account_id
          AND (bm.status_id = s.id OR bm.status_id = o.id))))
    AND NOT EXISTS (SELECT 1 FROM blocks bb WHERE bb.target_account_id = ${owner}
      AND (bb.account_id = s.account_id OR bb.account_id = o.account_id))
    AND NOT EXISTS (SELECT 1 FROM mutes m WHERE m.account_id = ${owner}
      AND (m.expires_at IS NULL OR m.expires_at > ${now})
      AND (m.target_account_id = s.account_id OR m.target_account_id = o.account_id
        OR EXISTS (SELECT 1 FROM mentions mm WHERE mm.account_id = m.target_account_id
          AND (mm.status_id = s.id OR mm.status_id = o.id))))
    AND NOT ${domainHiddenCondition(owner, sql.ref("s.account_id"))}
    AND NOT ${domainHiddenCondition(owner, sql.ref("o.account_id"))})`;
}

/**
 * On `notifications`: not from an account the recipient blocks, is blocked by, or mutes with its
 * notifications (a live mute), nor from an unfollowed account of a domain the recipient blocks; the SQL twin of `notificationsBlocked` (policies/blocks.ts).
 * Nor from a suspended account (Mastodon's `Notification.without_suspended`; `isUnavailable`,
 * policies/moderation.ts): what it caused comes back when it is unsuspended.
 */
export function notificationSenderAllowed(now: string) {
  return sql<boolean>`(EXISTS (SELECT 1 FROM accounts na WHERE na.id = notifications.from_account_id
      AND na.suspended_at IS NULL)
    AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocks.account_id = notifications.account_id
      AND blocks.target_account_id = notifications.from_account_id)
    AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocks.account_id = notifications.from_account_id
      AND blocks.target_account_id = notifications.account_id)
    AND NOT EXISTS (SELECT 1 FROM mutes WHERE mutes.account_id = notifications.account_id
      AND mutes.target_account_id = notifications.from_account_id AND mutes.hide_notifications = TRUE
      AND ${liveMute(now)})
    AND NOT ${domainHiddenCondition(sql.ref("notifications.account_id"), sql.ref("notifications.from_account_id"))})`;
}

/**
 * All SQL on `blocks` and `mutes`, and the reads a Relationship needs (follows both ways). The
 * writes that go with a block or mute (severing follows, clearing a home feed, dropping
 * notifications) are here too, so a block is one transaction; severing follows is in `FollowsRepository`.
 */
export class RelationshipsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** Records the block; false when it existed already. */
  async insertBlock(
    row: { id: string; account_id: string; target_account_id: string; uri: string | null; created_at: string },
    db: Kysely<DB> = this.#db,
  ): Promise<boolean> {
    const r = await db
      .insertInto("blocks")
      .values(row)
      .onConflict((oc) => oc.columns(["account_id", "target_account_id"]).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Removes the block; answers it (with its Block activity's id) when there was one. */
  async deleteBlock(accountId: string, targetAccountId: string): Promise<{ uri: string | null } | undefined> {
    return this.#db
      .deleteFrom("blocks")
      .where("account_id", "=", accountId)
      .where("target_account_id", "=", targetAccountId)
      .returning(["uri"])
      .executeTakeFirst();
  }

  /**
   * Records the mute, or updates an existing one's `hide_notifications` and `expires_at` (as
   * Mastodon does when muting again); the row keeps its id, so the mutes list keeps its order.
   * An expired mute that was not purged yet starts again with a new `created_at`.
   */
  async upsertMute(
    row: {
      id: string;
      account_id: string;
      target_account_id: string;
      hide_notifications: boolean;
      expires_at: string | null;
      created_at: string;
    },
    db: Kysely<DB> = this.#db,
  ): Promise<void> {
    await db
      .insertInto("mutes")
      .values(row)
      .onConflict((oc) =>
        oc.columns(["account_id", "target_account_id"]).doUpdateSet({
          hide_notifications: row.hide_notifications,
          expires_at: row.expires_at,
        }),
      )
      .execute();
  }

  async deleteMute(accountId: string, targetAccountId: string): Promise<boolean> {
    const r = await this.#db
      .deleteFrom("mutes")
      .where("account_id", "=", accountId)
      .where("target_account_id", "=", targetAccountId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Deletes mutes that expired before `now`; answers how many. */
  async purgeExpiredMutes(now: string): Promise<number> {
    const r = await this.#db
      .deleteFrom("mutes")
      .where("expires_at", "is not", null)
      .where("expires_at", "<=", now)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /**
   * Takes `authorId`'s posts and boosts, boosts of their posts, and posts (or boosts of posts) that
   * mention them out of `ownerId`'s home feed, as Mastodon does: one statement over that feed (at
   * most its cap of entries).
   */
  async clearFromFeed(ownerId: string, authorId: string, db: Kysely<DB> = this.#db): Promise<void> {
    await sql`DELETE FROM feeds WHERE feeds.account_id = ${ownerId} AND (
        EXISTS (SELECT 1 FROM statuses s WHERE s.id = feeds.status_id AND s.account_id = ${authorId})
        OR (feeds.reblog_of_id IS NOT NULL
          AND EXISTS (SELECT 1 FROM statuses o WHERE o.id = feeds.reblog_of_id AND o.account_id = ${authorId}))
        OR EXISTS (SELECT 1 FROM mentions m WHERE m.account_id = ${authorId}
          AND (m.status_id = feeds.status_id OR m.status_id = feeds.reblog_of_id)))`.execute(db);
  }

  /** Deletes the notifications `fromId` caused `recipientId` (a block clears them, as Mastodon). */
  async deleteNotificationsFrom(recipientId: string, fromId: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .deleteFrom("notifications")
      .where("account_id", "=", recipientId)
      .where("from_account_id", "=", fromId)
      .execute();
  }

  /**
   * Who among `ids` the viewer blocks, is blocked by and mutes (live mutes only), and which are on
   * a domain the viewer blocks (with whether the viewer follows them), in one query.
   */
  async blockMuteRelations(viewerId: string, ids: readonly string[], now: string): Promise<BlockMuteRelations> {
    const out = noRelations();
    if (ids.length === 0) return out;
    const build = () =>
      this.#db
        .selectFrom("blocks")
        .select([
          sql<string>`'blocking'`.as("kind"),
          "target_account_id as other",
          sql<boolean | number | null>`CAST(NULL AS boolean)`.as("hide"),
          sql<string | null>`CAST(NULL AS text)`.as("expires_at"),
        ])
        .where("account_id", "=", viewerId)
        .where("target_account_id", "in", ids)
        .unionAll(
          this.#db
            .selectFrom("blocks")
            .select([
              sql<string>`'blocked_by'`.as("kind"),
              "account_id as other",
              sql<boolean | number | null>`CAST(NULL AS boolean)`.as("hide"),
              sql<string | null>`CAST(NULL AS text)`.as("expires_at"),
            ])
            .where("target_account_id", "=", viewerId)
            .where("account_id", "in", ids),
        )
        .unionAll(
          this.#db
            .selectFrom("mutes")
            .select([
              sql<string>`'muting'`.as("kind"),
              "target_account_id as other",
              "hide_notifications as hide",
              "expires_at",
            ])
            .where("account_id", "=", viewerId)
            .where("target_account_id", "in", ids)
            .where(liveMute(now)),
        )
        .unionAll(
          // `hide` here: whether the viewer follows the account (which overrides the domain block).
          this.#db
            .selectFrom("accounts as dba")
            .innerJoin("account_domain_blocks as dbb", "dbb.domain", "dba.domain")
            .select([
              sql<string>`'domain_blocking'`.as("kind"),
              "dba.id as other",
              sql<boolean | number | null>`EXISTS (SELECT 1 FROM follows dbf WHERE dbf.account_id = ${viewerId}
                AND dbf.target_account_id = dba.id)`.as("hide"),
              sql<string | null>`CAST(NULL AS text)`.as("expires_at"),
            ])
            .where("dbb.account_id", "=", viewerId)
            .where("dba.id", "in", ids),
        );
    const rows = await selectShaped(
      this.#db,
      `relationships.blockMuteRelations ${ids.length}`,
      [viewerId, ...ids, viewerId, ...ids, viewerId, ...ids, now, viewerId, viewerId, ...ids],
      build,
    );
    for (const r of rows) {
      const other = String(r.other);
      if (r.kind === "blocking") out.blocking.add(other);
      else if (r.kind === "blocked_by") out.blockedBy.add(other);
      else if (r.kind === "domain_blocking") {
        out.domainBlocking.add(other);
        if (!r.hide) out.domainHidden.add(other);
      } else out.muting.set(other, { hideNotifications: Boolean(r.hide), expiresAt: r.expires_at ?? null });
    }
    return out;
  }

  /**
   * The viewer's follows of and follow requests to accounts among `ids`, and which of them follow
   * the viewer or asked to.
   */
  async followsBetween(
    viewerId: string,
    ids: readonly string[],
  ): Promise<{
    following: Map<string, FollowState>;
    followedBy: Set<string>;
    requested: Map<string, FollowState>;
    requestedBy: Set<string>;
  }> {
    const following = new Map<string, FollowState>();
    const followedBy = new Set<string>();
    const requested = new Map<string, FollowState>();
    const requestedBy = new Set<string>();
    if (ids.length === 0) return { following, followedBy, requested, requestedBy };
    const outgoing = (table: "follows" | "follow_requests") =>
      this.#db
        .selectFrom(table)
        .select(["target_account_id", "show_reblogs", "notify", "languages"])
        .where("account_id", "=", viewerId)
        .where("target_account_id", "in", ids)
        .execute();
    const incoming = (table: "follows" | "follow_requests") =>
      this.#db
        .selectFrom(table)
        .select("account_id")
        .where("target_account_id", "=", viewerId)
        .where("account_id", "in", ids)
        .execute();
    const [out, inc, outReq, incReq] = await Promise.all([
      outgoing("follows"),
      incoming("follows"),
      outgoing("follow_requests"),
      incoming("follow_requests"),
    ]);
    const state = (r: (typeof out)[number]): FollowState => ({
      showReblogs: Boolean(r.show_reblogs),
      notify: Boolean(r.notify),
      languages: r.languages ? (JSON.parse(r.languages) as string[]) : null,
    });
    for (const r of out) following.set(String(r.target_account_id), state(r));
    for (const r of outReq) requested.set(String(r.target_account_id), state(r));
    for (const r of inc) followedBy.add(String(r.account_id));
    for (const r of incReq) requestedBy.add(String(r.account_id));
    return { following, followedBy, requested, requestedBy };
  }

  /** One page of the accounts `accountId` blocks, by block id, newest first. */
  async blocksPage(accountId: string, window: IdWindow): Promise<BlockRow[]> {
    let q = this.#db.selectFrom("blocks").select(["id", "target_account_id"]).where("account_id", "=", accountId);
    q = applyWindow(q, "id", window);
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map((r) => ({ id: String(r.id), targetAccountId: String(r.target_account_id) })));
  }

  /** One page of the accounts `accountId` mutes (live mutes only), by mute id, newest first. */
  async mutesPage(accountId: string, window: IdWindow, now: string): Promise<MuteRow[]> {
    let q = this.#db
      .selectFrom("mutes")
      .select(["id", "target_account_id", "expires_at"])
      .where("account_id", "=", accountId)
      .where(liveMute(now));
    q = applyWindow(q, "id", window);
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(
      rows.map((r) => ({
        id: String(r.id),
        targetAccountId: String(r.target_account_id),
        expiresAt: r.expires_at ?? null,
      })),
    );
  }
}
