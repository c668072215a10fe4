import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";

/** All SQL on `follows` (the follow endpoints come later; statuses need follows for private posts). */
export class FollowsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** Records that `accountId` follows `targetAccountId` (nothing happens when it already does). */
  async insert(row: {
    id: string;
    account_id: string;
    target_account_id: string;
    uri?: string | null;
    show_reblogs?: boolean;
    created_at: string;
  }) {
    await this.#db
      .insertInto("follows")
      .values({ ...row, updated_at: row.created_at })
      .onConflict((oc) => oc.columns(["account_id", "target_account_id"]).doNothing())
      .execute();
  }

  async delete(accountId: string, targetAccountId: string): Promise<void> {
    await this.#db
      .deleteFrom("follows")
      .where("account_id", "=", accountId)
      .where("target_account_id", "=", targetAccountId)
      .execute();
  }

  /** Which of `targetIds` `accountId` follows. */
  async followedAmong(accountId: string, targetIds: readonly string[]): Promise<Set<string>> {
    if (targetIds.length === 0) return new Set();
    const rows = await this.#db
      .selectFrom("follows")
      .select("target_account_id")
      .where("account_id", "=", accountId)
      .where("target_account_id", "in", targetIds)
      .execute();
    return new Set(rows.map((r) => String(r.target_account_id)));
  }
}
