import { type Kysely, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { DB } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";

export interface DomainBlockRow {
  id: string;
  domain: string;
}

/**
 * All SQL on `account_domain_blocks` (user-level domain blocks) and the writes that go with
 * blocking a domain. The rule that hides an account of a blocked domain from the blocker is
 * `domainHiddenCondition` in relationships.ts, beside the account-block rules.
 */
export class DomainBlocksRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** Records the block; false when it existed already. */
  async insert(
    row: { id: string; account_id: string; domain: string; created_at: string },
    db: Kysely<DB> = this.#db,
  ): Promise<boolean> {
    const r = await db
      .insertInto("account_domain_blocks")
      .values(row)
      .onConflict((oc) => oc.columns(["account_id", "domain"]).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async delete(accountId: string, domain: string): Promise<boolean> {
    const r = await this.#db
      .deleteFrom("account_domain_blocks")
      .where("account_id", "=", accountId)
      .where("domain", "=", domain)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** One page of the domains `accountId` blocks, by row id, newest first. */
  async page(accountId: string, window: IdWindow): Promise<DomainBlockRow[]> {
    let q = this.#db.selectFrom("account_domain_blocks").select(["id", "domain"]).where("account_id", "=", accountId);
    q = applyWindow(q, "id", window);
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map((r) => ({ id: String(r.id), domain: r.domain })));
  }

  /** How many accounts of `domain` `accountId` follows, and how many of them follow it back. */
  async followCounts(accountId: string, domain: string): Promise<{ following: number; followers: number }> {
    const r = await sql<{ following: number | string; followers: number | string }>`SELECT
        (SELECT COUNT(*) FROM follows f JOIN accounts a ON a.id = f.target_account_id
          WHERE f.account_id = ${accountId} AND a.domain = ${domain}) AS following,
        (SELECT COUNT(*) FROM follows f JOIN accounts a ON a.id = f.account_id
          WHERE f.target_account_id = ${accountId} AND a.domain = ${domain}) AS followers`.execute(this.#db);
    const row = r.rows[0];
    return { following: Number(row?.following ?? 0), followers: Number(row?.followers ?? 0) };
  }

  /**
   * Takes posts and boosts by accounts of `domain`, and boosts of their posts, out of `ownerId`'s
   * home feed and list timelines, and the domain's accounts out of `ownerId`'s lists (their
   * follows ended): one statement each.
   */
  async clearFromFeeds(ownerId: string, domain: string, db: Kysely<DB> = this.#db): Promise<void> {
    const byDomain = (col: string) =>
      sql`EXISTS (SELECT 1 FROM statuses s JOIN accounts a ON a.id = s.account_id
        WHERE s.id = ${sql.ref(col)} AND a.domain = ${domain})`;
    await sql`DELETE FROM feeds WHERE feeds.account_id = ${ownerId}
      AND (${byDomain("feeds.status_id")} OR (feeds.reblog_of_id IS NOT NULL AND ${byDomain("feeds.reblog_of_id")}))`.execute(
      db,
    );
    await sql`DELETE FROM list_accounts WHERE list_accounts.list_id IN (SELECT l.id FROM lists l WHERE l.account_id = ${ownerId})
      AND list_accounts.account_id IN (SELECT a.id FROM accounts a WHERE a.domain = ${domain})`.execute(db);
    await sql`DELETE FROM list_feeds WHERE list_feeds.list_id IN (SELECT l.id FROM lists l WHERE l.account_id = ${ownerId})
      AND (${byDomain("list_feeds.status_id")}
        OR (list_feeds.reblog_of_id IS NOT NULL AND ${byDomain("list_feeds.reblog_of_id")}))`.execute(db);
  }

  /** Deletes the notifications accounts of `domain` caused `recipientId` (Mastodon clears them). */
  async deleteNotificationsFrom(recipientId: string, domain: string, db: Kysely<DB> = this.#db): Promise<void> {
    await sql`DELETE FROM notifications WHERE notifications.account_id = ${recipientId}
      AND notifications.from_account_id IN (SELECT a.id FROM accounts a WHERE a.domain = ${domain})`.execute(db);
  }
}
