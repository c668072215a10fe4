import { type Kysely, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { DB } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";

export interface PinRow {
  id: string;
  targetAccountId: string;
}

/**
 * An endorsement counts while its owner still follows the endorsed account. Ending a follow
 * deletes it (`FollowsRepository.delete`, as Mastodon); this condition only covers a pin that
 * raced with the end of its follow.
 */
const pinFollowed = sql<boolean>`EXISTS (SELECT 1 FROM follows f WHERE f.account_id = account_pins.account_id
  AND f.target_account_id = account_pins.target_account_id)`;

/** All SQL on `account_pins` (endorsements) and `account_notes` (private notes on accounts). */
export class AccountCurationRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** Records the endorsement; nothing happens when it exists. */
  async pin(
    row: { id: string; account_id: string; target_account_id: string; created_at: string },
    db: Kysely<DB> = this.#db,
  ): Promise<void> {
    await db
      .insertInto("account_pins")
      .values(row)
      .onConflict((oc) => oc.columns(["account_id", "target_account_id"]).doNothing())
      .execute();
  }

  async unpin(accountId: string, targetAccountId: string): Promise<void> {
    await this.#db
      .deleteFrom("account_pins")
      .where("account_id", "=", accountId)
      .where("target_account_id", "=", targetAccountId)
      .execute();
  }

  /**
   * One page of the accounts `accountId` endorses and still follows, by endorsement id, newest
   * first; suspended accounts left out.
   */
  async pinsPage(accountId: string, window: IdWindow): Promise<PinRow[]> {
    let q = this.#db
      .selectFrom("account_pins")
      .innerJoin("accounts", "accounts.id", "account_pins.target_account_id")
      .select(["account_pins.id", "account_pins.target_account_id"])
      .where("account_pins.account_id", "=", accountId)
      .where("accounts.suspended_at", "is", null)
      .where(pinFollowed);
    q = applyWindow(q, "account_pins.id", window);
    const rows = await q.orderBy("account_pins.id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map((r) => ({ id: String(r.id), targetAccountId: String(r.target_account_id) })));
  }

  /** Which of `ids` the account endorses (and still follows). */
  async endorsedAmong(accountId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.#db
      .selectFrom("account_pins")
      .select("target_account_id")
      .where("account_id", "=", accountId)
      .where("target_account_id", "in", ids)
      .where(pinFollowed)
      .execute();
    return new Set(rows.map((r) => String(r.target_account_id)));
  }

  /** Sets the account's note on `targetAccountId`, creating or replacing it. */
  async setNote(row: {
    id: string;
    account_id: string;
    target_account_id: string;
    comment: string;
    created_at: string;
  }): Promise<void> {
    await this.#db
      .insertInto("account_notes")
      .values({ ...row, updated_at: row.created_at })
      .onConflict((oc) =>
        oc
          .columns(["account_id", "target_account_id"])
          .doUpdateSet({ comment: row.comment, updated_at: row.created_at }),
      )
      .execute();
  }

  async deleteNote(accountId: string, targetAccountId: string): Promise<void> {
    await this.#db
      .deleteFrom("account_notes")
      .where("account_id", "=", accountId)
      .where("target_account_id", "=", targetAccountId)
      .execute();
  }

  /**
   * Copies every note on `fromId` to `toId` for the accounts that have none on `toId` yet (an
   * account moved: Mastodon carries the notes over); answers how many were copied.
   */
  async copyNotes(fromId: string, toId: string, newId: () => string, now: string): Promise<number> {
    const notes = await this.#db
      .selectFrom("account_notes")
      .select(["account_id", "comment"])
      .where("target_account_id", "=", fromId)
      .execute();
    let copied = 0;
    for (const n of notes) {
      const r = await this.#db
        .insertInto("account_notes")
        .values({
          id: newId(),
          account_id: n.account_id,
          target_account_id: toId,
          comment: n.comment,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(["account_id", "target_account_id"]).doNothing())
        .executeTakeFirst();
      copied += Number(r.numInsertedOrUpdatedRows ?? 0);
    }
    return copied;
  }

  /** The account's notes on each of `ids` that has one. */
  async notesAmong(accountId: string, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom("account_notes")
      .select(["target_account_id", "comment"])
      .where("account_id", "=", accountId)
      .where("target_account_id", "in", ids)
      .execute();
    return new Map(rows.map((r) => [String(r.target_account_id), r.comment]));
  }
}
