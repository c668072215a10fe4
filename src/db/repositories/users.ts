import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from "kysely";
import type { DB, UsersTable } from "../schema.ts";
import { selectShaped } from "./query-shapes.ts";

export interface UserSettings {
  privacy?: "public" | "unlisted" | "private" | "direct";
  sensitive?: boolean;
  language?: string | null;
  expandMedia?: "default" | "show_all" | "hide_all";
  expandSpoilers?: boolean;
  /** Mastodon's `chosen_languages`: the languages the user reads (trends follow them); absent: any. */
  chosenLanguages?: string[] | null;
  /** E-mails the user has turned on or off (Mastodon's `notification_emails.*`); absent: the default. */
  notificationEmails?: { trends?: boolean };
  /** Who may quote new posts by default (`source[quote_policy]`); absent: public. */
  quotePolicy?: "public" | "followers" | "nobody";
  /** Sites allowed to name this account as the author of their articles (`attribution_domains`, Mastodon 4.4). */
  attributionDomains?: string[];
}

export interface User {
  id: string;
  accountId: string;
  email: string;
  encryptedPassword: string;
  roleId: string;
  locale: string;
  confirmedAt: string | null;
  unconfirmedEmail: string | null;
  approved: boolean;
  disabled: boolean;
  reason: string | null;
  createdByApplicationId: string | null;
  signUpIp: string | null;
  currentSignInAt: string | null;
  lastSignInAt: string | null;
  settings: UserSettings;
  createdAt: string;
  updatedAt: string;
}

export function toUser(r: Selectable<UsersTable>): User {
  let settings: UserSettings = {};
  try {
    settings = JSON.parse(r.settings) as UserSettings;
  } catch {
    settings = {};
  }
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    email: r.email,
    encryptedPassword: r.encrypted_password,
    roleId: String(r.role_id),
    locale: r.locale,
    confirmedAt: r.confirmed_at,
    unconfirmedEmail: r.unconfirmed_email,
    approved: Boolean(r.approved),
    disabled: Boolean(r.disabled),
    reason: r.reason,
    createdByApplicationId: r.created_by_application_id === null ? null : String(r.created_by_application_id),
    signUpIp: r.sign_up_ip,
    currentSignInAt: r.current_sign_in_at,
    lastSignInAt: r.last_sign_in_at,
    settings,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export type UserUpdate = Omit<Updateable<UsersTable>, "id" | "created_at">;

/** All SQL on `users`. */
export class UsersRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async insert(row: Insertable<UsersTable>, db: Kysely<DB> = this.#db): Promise<void> {
    await db.insertInto("users").values(row).execute();
  }

  async update(id: string, patch: UserUpdate, db: Kysely<DB> = this.#db): Promise<void> {
    await db.updateTable("users").set(patch).where("id", "=", id).execute();
  }

  async getById(id: string): Promise<User | undefined> {
    const r = await this.#db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    return r && toUser(r);
  }

  async getByAccountId(accountId: string): Promise<User | undefined> {
    const r = await this.#db.selectFrom("users").selectAll().where("account_id", "=", accountId).executeTakeFirst();
    return r && toUser(r);
  }

  async getByAccountIds(accountIds: readonly string[]): Promise<User[]> {
    if (accountIds.length === 0) return [];
    const rows = await this.#db.selectFrom("users").selectAll().where("account_id", "in", accountIds).execute();
    return rows.map(toUser);
  }

  /** The role of each local account's user (for role badges), without reading whole users. */
  async roleIdsByAccountIds(accountIds: readonly string[]): Promise<Map<string, string>> {
    if (accountIds.length === 0) return new Map();
    const rows = await selectShaped(this.#db, `users.roleIdsByAccountIds ${accountIds.length}`, accountIds, () =>
      this.#db.selectFrom("users").select(["account_id", "role_id"]).where("account_id", "in", accountIds),
    );
    return new Map(rows.map((r) => [String(r.account_id), String(r.role_id)]));
  }

  async getByEmail(email: string): Promise<User | undefined> {
    const r = await this.#db
      .selectFrom("users")
      .selectAll()
      .where(sql<string>`lower(email)`, "=", email.toLowerCase())
      .executeTakeFirst();
    return r && toUser(r);
  }

  async getByConfirmationToken(tokenHash: string): Promise<User | undefined> {
    const r = await this.#db
      .selectFrom("users")
      .selectAll()
      .where("confirmation_token", "=", tokenHash)
      .executeTakeFirst();
    return r && toUser(r);
  }

  /** The user whose new address `email` waits for confirmation (case-insensitive). */
  async getByUnconfirmedEmail(email: string): Promise<User | undefined> {
    const r = await this.#db
      .selectFrom("users")
      .selectAll()
      .where(sql<string>`lower(unconfirmed_email)`, "=", email.toLowerCase())
      .executeTakeFirst();
    return r && toUser(r);
  }

  /** The user a password reset link names (by the token's hash), with when the link was sent. */
  async getByResetPasswordToken(tokenHash: string): Promise<{ user: User; sentAt: string | null } | undefined> {
    const r = await this.#db
      .selectFrom("users")
      .selectAll()
      .where("reset_password_token", "=", tokenHash)
      .executeTakeFirst();
    return r && { user: toUser(r), sentAt: r.reset_password_sent_at };
  }

  /** Spends a password reset token: true for the one caller that cleared it (a link works once). */
  async spendResetPasswordToken(id: string, tokenHash: string): Promise<boolean> {
    const r = await this.#db
      .updateTable("users")
      .set({ reset_password_token: null, reset_password_sent_at: null })
      .where("id", "=", id)
      .where("reset_password_token", "=", tokenHash)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Whether another user already uses `email` (case-insensitive), as address or pending new address. */
  async emailTaken(email: string, exceptUserId?: string): Promise<boolean> {
    let q = this.#db
      .selectFrom("users")
      .select("id")
      .where((eb) =>
        eb.or([
          eb(sql<string>`lower(email)`, "=", email.toLowerCase()),
          eb(sql<string>`lower(unconfirmed_email)`, "=", email.toLowerCase()),
        ]),
      );
    if (exceptUserId !== undefined) q = q.where("id", "!=", exceptUserId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async count(): Promise<number> {
    const r = await this.#db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Users whose latest sign-in (or authenticated API use) is at or after `sinceIso`. */
  async countActiveSince(sinceIso: string): Promise<number> {
    const r = await this.#db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("current_sign_in_at", ">=", sinceIso)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async countCreatedBetween(fromIso: string, toIso: string): Promise<number> {
    const r = await this.#db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("created_at", ">=", fromIso)
      .where("created_at", "<", toIso)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async countSignedInBetween(fromIso: string, toIso: string): Promise<number> {
    const r = await this.#db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("current_sign_in_at", ">=", fromIso)
      .where("current_sign_in_at", "<", toIso)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Deletes a user; its OAuth grants and tokens go with it (foreign keys cascade). */
  async delete(id: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db.deleteFrom("users").where("id", "=", id).execute();
  }

  /** One page of local users with their usernames, in account creation order (admin listings). */
  async listWithUsernames(opts: { afterAccountId?: string; limit: number }): Promise<(User & { username: string })[]> {
    let q = this.#db
      .selectFrom("users")
      .innerJoin("accounts", "accounts.id", "users.account_id")
      .selectAll("users")
      .select("accounts.username as username")
      .orderBy("users.account_id")
      .limit(opts.limit);
    if (opts.afterAccountId !== undefined) q = q.where("users.account_id", ">", opts.afterAccountId);
    const rows = await q.execute();
    return rows.map((r) => ({ ...toUser(r), username: r.username }));
  }
}
