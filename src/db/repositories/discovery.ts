import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DB } from "../schema.ts";
import { searchableAccountCondition } from "./accounts.ts";
import { domainHiddenCondition } from "./relationships.ts";

/**
 * Mastodon's `Account.discoverable` on `accounts a`: public, not suspended, silenced, moved or a
 * memorial, and opted into discovery.
 */
const discoverable = sql<boolean>`(${searchableAccountCondition("a")} AND a.discoverable = ${true}
  AND a.silenced_at IS NULL AND a.moved_to_account_id IS NULL AND a.memorial = ${false})`;

/** On `accounts a`: not blocked by, blocking or (live mute) muted by the viewer, nor of a domain the viewer blocks. */
function notExcludedBy(viewerId: string, now: string): RawBuilder<boolean> {
  return sql<boolean>`(NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.account_id = ${viewerId} AND b.target_account_id = a.id)
      OR (b.account_id = a.id AND b.target_account_id = ${viewerId}))
    AND NOT EXISTS (SELECT 1 FROM mutes m WHERE m.account_id = ${viewerId} AND m.target_account_id = a.id
      AND (m.expires_at IS NULL OR m.expires_at > ${now}))
    AND NOT ${domainHiddenCondition(viewerId, sql.ref("a.id"))})`;
}

/** On `accounts a`: someone the viewer could be suggested (Mastodon's base suggestion scope). */
function suggestible(viewerId: string, now: string): RawBuilder<boolean> {
  return sql<boolean>`(${discoverable} AND a.id <> ${viewerId} AND ${notExcludedBy(viewerId, now)}
    AND NOT EXISTS (SELECT 1 FROM follows vf WHERE vf.account_id = ${viewerId} AND vf.target_account_id = a.id)
    AND NOT EXISTS (SELECT 1 FROM account_suggestion_dismissals d WHERE d.account_id = ${viewerId}
      AND d.target_account_id = a.id))`;
}

export interface DirectoryOptions {
  order: "active" | "new";
  local: boolean;
  viewerId?: string;
  limit: number;
  offset: number;
}

/** All SQL on `account_suggestion_dismissals`, and the queries behind suggestions and the directory. */
export class DiscoveryRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** Records that the account does not want `targetAccountId` suggested again. */
  async dismiss(row: { id: string; account_id: string; target_account_id: string; created_at: string }): Promise<void> {
    await this.#db
      .insertInto("account_suggestion_dismissals")
      .values(row)
      .onConflict((oc) => oc.columns(["account_id", "target_account_id"]).doNothing())
      .execute();
  }

  /**
   * Mastodon's friends-of-friends source: accounts followed by the accounts the viewer follows
   * (those that do not hide their network), most shared first.
   */
  async friendsOfFriends(viewerId: string, limit: number, now: string): Promise<string[]> {
    const r = await sql<{ id: string }>`SELECT a.id FROM accounts a
      JOIN follows f2 ON f2.target_account_id = a.id
      JOIN follows f1 ON f1.target_account_id = f2.account_id AND f1.account_id = ${viewerId}
      JOIN accounts mid ON mid.id = f1.target_account_id
      WHERE (mid.hide_collections IS NULL OR mid.hide_collections = ${false}) AND ${suggestible(viewerId, now)}
      GROUP BY a.id
      ORDER BY COUNT(*) DESC, a.id DESC
      LIMIT ${limit}`.execute(this.#db);
    return r.rows.map((x) => String(x.id));
  }

  /** Mastodon's most-followed source, for this server's accounts: by follower count, then activity. */
  async mostFollowedLocal(viewerId: string, limit: number, now: string): Promise<string[]> {
    const r = await sql<{ id: string }>`SELECT a.id FROM accounts a
      WHERE a.domain IS NULL AND ${suggestible(viewerId, now)}
      ORDER BY (SELECT COUNT(*) FROM follows fc WHERE fc.target_account_id = a.id) DESC,
        a.last_status_at DESC NULLS LAST, a.id DESC
      LIMIT ${limit}`.execute(this.#db);
    return r.rows.map((x) => String(x.id));
  }

  /**
   * The profile directory: discoverable accounts (this server's only with `local`), leaving out
   * those the viewer blocks, mutes or is blocked by; `active` orders by latest post (accounts that
   * never posted last), `new` by newest account.
   */
  async directory(opts: DirectoryOptions): Promise<string[]> {
    const now = new Date().toISOString();
    const order = opts.order === "new" ? sql`a.id DESC` : sql`a.last_status_at DESC NULLS LAST, a.id DESC`;
    const r = await sql<{ id: string }>`SELECT a.id FROM accounts a
      WHERE ${discoverable}
        ${opts.local ? sql`AND a.domain IS NULL` : sql``}
        ${opts.viewerId !== undefined ? sql`AND ${notExcludedBy(opts.viewerId, now)}` : sql``}
      ORDER BY ${order}
      LIMIT ${opts.limit} OFFSET ${opts.offset}`.execute(this.#db);
    return r.rows.map((x) => String(x.id));
  }
}
