import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";

/**
 * The SQL of account moderation that belongs to no one table's repository: the reports an action
 * resolves, the tokens whose streams close on suspension, and the suspensions due for purging.
 */
export class AccountModerationRepository {
  readonly #db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** The unresolved reports about an account, oldest first. */
  async unresolvedReportIds(targetAccountId: string, db: Kysely<DB> = this.#db): Promise<string[]> {
    const rows = await db
      .selectFrom("reports")
      .select("id")
      .where("target_account_id", "=", targetAccountId)
      .where("action_taken_at", "is", null)
      .orderBy("id")
      .execute();
    return rows.map((r) => String(r.id));
  }

  /** Marks reports resolved by `byAccountId` (null: the `gannet` command). */
  async resolveReports(ids: readonly string[], byAccountId: string | null, at: string, db: Kysely<DB> = this.#db) {
    if (ids.length === 0) return;
    await db
      .updateTable("reports")
      .set({ action_taken_at: at, action_taken_by_account_id: byAccountId, updated_at: at })
      .where("id", "in", ids)
      .where("action_taken_at", "is", null)
      .execute();
  }

  /** The ids of a user's live access tokens. */
  async liveTokenIds(userId: string): Promise<string[]> {
    const rows = await this.#db
      .selectFrom("oauth_access_tokens")
      .select("id")
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null)
      .execute();
    return rows.map((r) => String(r.id));
  }

  /** Accounts suspended here (origin `local`) at or before `cutoff`, oldest suspension first. */
  async locallySuspendedBefore(cutoff: string, limit: number): Promise<string[]> {
    const rows = await this.#db
      .selectFrom("accounts")
      .select("id")
      .where("suspension_origin", "=", "local")
      .where("suspended_at", "<=", cutoff)
      .orderBy("suspended_at")
      .limit(limit)
      .execute();
    return rows.map((r) => String(r.id));
  }

  /** Blocks sign-ups with a canonical e-mail hash, naming the suspended account (kept if already blocked). */
  async blockCanonicalEmail(
    row: { id: string; hash: string; accountId: string; at: string },
    db: Kysely<DB> = this.#db,
  ): Promise<void> {
    await db
      .insertInto("canonical_email_blocks")
      .values({
        id: row.id,
        canonical_email_hash: row.hash,
        reference_account_id: row.accountId,
        created_at: row.at,
        updated_at: row.at,
      })
      .onConflict((oc) => oc.column("canonical_email_hash").doNothing())
      .execute();
  }

  /** Removes the canonical e-mail blocks a suspension of the account added. */
  async unblockCanonicalEmailsOf(accountId: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db.deleteFrom("canonical_email_blocks").where("reference_account_id", "=", accountId).execute();
  }
}
