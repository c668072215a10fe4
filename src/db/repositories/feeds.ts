import { type Kysely, sql } from "kysely";
import type { IdWindow } from "../../http/pagination.ts";
import type { DB } from "../schema.ts";
import { applyWindow, idWindowOrder } from "./id-window.ts";

/** All SQL on `feeds`, the materialised home timelines. */
export class FeedsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /**
   * Puts a live status into the home feeds that should get it, in one statement: its author's;
   * for public, unlisted and private posts the author's local followers (a boost only for those
   * whose follow shows boosts, and a reply to someone else only for those who follow them too, or
   * are them, as Mastodon's home filter does); for direct posts the mentioned local accounts that follow the author (Mastodon's
   * deliver_to_mentioned_followers!: a stranger's direct message is not pushed into a home). A boost is left
   * out of a feed that already holds the boosted post or another boost of it. As Mastodon's home
   * filter, no other feed gets it whose owner blocks or mutes its author, the boosted post's author
   * or an account either mentions, nor whose owner the author or boosted author blocks. Running it twice
   * changes nothing. Answers how many entries were added.
   */
  async fanOut(statusId: string, db: Kysely<DB> = this.#db): Promise<number> {
    const r = await sql`INSERT INTO feeds (account_id, status_id, reblog_of_id)
      SELECT r.account_id, s.id, s.reblog_of_id
      FROM statuses s
      JOIN (
        SELECT a.account_id FROM statuses a WHERE a.id = ${statusId}
        UNION
        SELECT f.account_id FROM statuses fs
          JOIN follows f ON f.target_account_id = fs.account_id
          JOIN accounts fa ON fa.id = f.account_id
          WHERE fs.id = ${statusId} AND fs.visibility <> 'direct' AND fa.domain IS NULL
            AND (fs.reblog_of_id IS NULL OR f.show_reblogs = TRUE)
            AND (fs.in_reply_to_account_id IS NULL OR fs.in_reply_to_account_id = fs.account_id
              OR fs.in_reply_to_account_id = f.account_id
              OR EXISTS (SELECT 1 FROM follows rf WHERE rf.account_id = f.account_id
                AND rf.target_account_id = fs.in_reply_to_account_id))
        UNION
        SELECT m.account_id FROM statuses ms
          JOIN mentions m ON m.status_id = ms.id
          JOIN accounts ma ON ma.id = m.account_id
          JOIN follows mf ON mf.account_id = m.account_id AND mf.target_account_id = ms.account_id
          WHERE ms.id = ${statusId} AND ms.visibility = 'direct' AND ma.domain IS NULL
      ) r ON 1 = 1
      LEFT JOIN statuses o ON o.id = s.reblog_of_id
      WHERE s.id = ${statusId} AND s.deleted_at IS NULL
        AND (s.reblog_of_id IS NULL OR NOT EXISTS (
          SELECT 1 FROM feeds x WHERE x.account_id = r.account_id
            AND (x.status_id = s.reblog_of_id OR x.reblog_of_id = s.reblog_of_id)))
        AND (r.account_id = s.account_id OR (
          NOT EXISTS (SELECT 1 FROM blocks b WHERE b.account_id = r.account_id
            AND (b.target_account_id = s.account_id OR b.target_account_id = o.account_id
              OR EXISTS (SELECT 1 FROM mentions bm WHERE bm.account_id = b.target_account_id
                AND (bm.status_id = s.id OR bm.status_id = o.id))))
          AND NOT EXISTS (SELECT 1 FROM blocks bb WHERE bb.target_account_id = r.account_id
            AND (bb.account_id = s.account_id OR bb.account_id = o.account_id))
          AND NOT EXISTS (SELECT 1 FROM mutes m WHERE m.account_id = r.account_id
            AND (m.expires_at IS NULL OR m.expires_at > ${new Date().toISOString()})
            AND (m.target_account_id = s.account_id OR m.target_account_id = o.account_id
              OR EXISTS (SELECT 1 FROM mentions mm WHERE mm.account_id = m.target_account_id
                AND (mm.status_id = s.id OR mm.status_id = o.id))))))
      ON CONFLICT (account_id, status_id) DO NOTHING`.execute(db);
    return Number(r.numAffectedRows ?? 0);
  }

  /**
   * Trims the feeds holding `statusId` to their newest `cap` entries: one ranked pass over those
   * feeds (through the primary key), deleting only the entries ranked past the cap.
   */
  async trimFeedsOf(statusId: string, cap: number, db: Kysely<DB> = this.#db): Promise<void> {
    await sql`DELETE FROM feeds WHERE (account_id, status_id) IN (
      SELECT ranked.account_id, ranked.status_id FROM (
        SELECT f.account_id, f.status_id,
          ROW_NUMBER() OVER (PARTITION BY f.account_id ORDER BY f.status_id DESC) AS position
        FROM feeds f
        WHERE f.account_id IN (SELECT h.account_id FROM feeds h WHERE h.status_id = ${statusId})
      ) ranked
      WHERE ranked.position > ${cap})`.execute(db);
  }

  /** Takes a status out of every feed. */
  async removeStatus(statusId: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db.deleteFrom("feeds").where("status_id", "=", statusId).execute();
  }

  /** One page of an account's feed: status ids, newest first. */
  async page(accountId: string, window: IdWindow): Promise<string[]> {
    let q = this.#db.selectFrom("feeds").select("status_id").where("account_id", "=", accountId);
    q = applyWindow(q, "status_id", window);
    const rows = await q.orderBy("status_id", idWindowOrder(window)).limit(window.limit).execute();
    return rows
      .map((r) => String(r.status_id))
      .sort((a, b) => (BigInt(a) < BigInt(b) ? 1 : BigInt(a) > BigInt(b) ? -1 : 0));
  }

  /** How many entries an account's feed holds. */
  async count(accountId: string): Promise<number> {
    const r = await this.#db
      .selectFrom("feeds")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("account_id", "=", accountId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
