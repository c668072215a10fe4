import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";

/** A move of a local account to another one (Mastodon's AccountMigration). */
export interface AccountMigration {
  id: string;
  accountId: string;
  acct: string;
  followersCount: number;
  targetAccountId: string | null;
  createdAt: string;
}

/** All SQL on `account_migrations` (migration 0048). */
export class AccountMigrationsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async insert(m: AccountMigration): Promise<void> {
    await this.#db
      .insertInto("account_migrations")
      .values({
        id: m.id,
        account_id: m.accountId,
        acct: m.acct,
        followers_count: m.followersCount,
        target_account_id: m.targetAccountId,
        created_at: m.createdAt,
      })
      .execute();
  }

  /** The account's moves, newest first. */
  async ofAccount(accountId: string, limit = 20): Promise<AccountMigration[]> {
    const rows = await this.#db
      .selectFrom("account_migrations")
      .selectAll()
      .where("account_id", "=", accountId)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: String(r.id),
      accountId: String(r.account_id),
      acct: r.acct,
      followersCount: Number(r.followers_count),
      targetAccountId: r.target_account_id === null ? null : String(r.target_account_id),
      createdAt: r.created_at,
    }));
  }
}
