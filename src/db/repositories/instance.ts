import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";

/** Queries behind the public instance endpoints (NodeInfo, instance v1/v2). */
export class InstanceRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /**
   * Local users who count as members: confirmed, approved and not suspended (Mastodon counts
   * confirmed users of unsuspended accounts; unapproved ones are invisible here, so not counted).
   */
  async countMembers(): Promise<number> {
    const r = await this.#db
      .selectFrom("users")
      .innerJoin("accounts", "accounts.id", "users.account_id")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("users.confirmed_at", "is not", null)
      .where("users.approved", "=", true)
      .where("accounts.suspended_at", "is", null)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** The oldest unsuspended local account whose user holds `roleId` (the contact account). */
  async firstAccountIdWithRole(roleId: string): Promise<string | undefined> {
    const r = await this.#db
      .selectFrom("users")
      .innerJoin("accounts", "accounts.id", "users.account_id")
      .select("users.account_id")
      .where("users.role_id", "=", roleId)
      .where("accounts.suspended_at", "is", null)
      .orderBy("users.id")
      .limit(1)
      .executeTakeFirst();
    return r === undefined ? undefined : String(r.account_id);
  }
}
