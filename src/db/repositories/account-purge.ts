import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";
import { type Status, toStatus } from "./statuses.ts";

/**
 * The SQL that empties a remote account whose domain was suspended, beyond its own posts
 * (services/statuses/delete.ts removes those): what it did to others' posts and to local users.
 */
export class AccountPurgeRepository {
  readonly #db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** The live boosts of any of `statusIds`. */
  async liveReblogsOfMany(statusIds: readonly string[], db: Kysely<DB> = this.#db): Promise<Status[]> {
    if (statusIds.length === 0) return [];
    const rows = await db
      .selectFrom("statuses")
      .selectAll()
      .where("reblog_of_id", "in", [...statusIds])
      .where("deleted_at", "is", null)
      .execute();
    return rows.map(toStatus);
  }

  /**
   * Marks `statusIds` deleted in a fixed number of statements, and removes them from pins, home
   * feeds, list feeds and notifications (the counters are the caller's).
   */
  async tombstoneMany(statusIds: readonly string[], iso: string, db: Kysely<DB>): Promise<void> {
    if (statusIds.length === 0) return;
    const ids = [...statusIds];
    await db.updateTable("statuses").set({ deleted_at: iso, updated_at: iso }).where("id", "in", ids).execute();
    await db.deleteFrom("status_pins").where("status_id", "in", ids).execute();
    await db.deleteFrom("feeds").where("status_id", "in", ids).execute();
    await db.deleteFrom("list_feeds").where("status_id", "in", ids).execute();
    await db.deleteFrom("notifications").where("status_id", "in", ids).execute();
  }

  /**
   * Removes the account's favourites and bookmarks, uncounting its favourites on the posts, and
   * the notifications it caused; zeroes its follow counts (its follows are gone already).
   */
  async removeTracesOf(accountId: string, now: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .updateTable("statuses")
      .set({
        favourites_count: sql<number>`CASE WHEN favourites_count > 0 THEN favourites_count - 1 ELSE 0 END`,
      })
      .where("id", "in", (eb) => eb.selectFrom("favourites").select("status_id").where("account_id", "=", accountId))
      .execute();
    await db.deleteFrom("favourites").where("account_id", "=", accountId).execute();
    await db.deleteFrom("bookmarks").where("account_id", "=", accountId).execute();
    await db.deleteFrom("notifications").where("from_account_id", "=", accountId).execute();
    await db
      .updateTable("accounts")
      .set({ followers_count: 0, following_count: 0, updated_at: now })
      .where("id", "=", accountId)
      .execute();
  }
}
