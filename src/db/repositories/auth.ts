import { type Kysely, type Selectable, sql } from "kysely";
import type { AccountsTable, DB, OAuthAccessTokensTable, UsersTable } from "../schema.ts";
import { type Account, toAccount } from "./accounts.ts";
import { type AccessToken, toAccessToken } from "./oauth.ts";
import { toUser, type User } from "./users.ts";

const TOKEN_COLUMNS = [
  "id",
  "application_id",
  "user_id",
  "token_hash",
  "scopes",
  "revoked_at",
  "last_used_at",
  "created_at",
] as const satisfies readonly (keyof OAuthAccessTokensTable)[];

const USER_COLUMNS = [
  "id",
  "account_id",
  "email",
  "encrypted_password",
  "role_id",
  "locale",
  "confirmed_at",
  "confirmation_token",
  "confirmation_sent_at",
  "unconfirmed_email",
  "approved",
  "disabled",
  "reason",
  "created_by_application_id",
  "sign_up_ip",
  "current_sign_in_at",
  "last_sign_in_at",
  "settings",
  "created_at",
  "updated_at",
] as const satisfies readonly (keyof UsersTable)[];

export interface TokenOwner {
  token: AccessToken;
  user?: User;
  account?: Account;
}

/** The one query behind every authenticated request: a token with its user and account. */
export class AuthRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async getTokenOwner(tokenHash: string): Promise<TokenOwner | undefined> {
    const row = (await this.#db
      .selectFrom("oauth_access_tokens as t")
      .leftJoin("users as u", "u.id", "t.user_id")
      .leftJoin("accounts as a", "a.id", "u.account_id")
      .selectAll("a")
      .select(TOKEN_COLUMNS.map((c) => sql.ref(`t.${c}`).as(`t__${c}`)))
      .select(USER_COLUMNS.map((c) => sql.ref(`u.${c}`).as(`u__${c}`)))
      .where("t.token_hash", "=", tokenHash)
      .executeTakeFirst()) as Record<string, unknown> | undefined;
    if (!row) return undefined;
    const pick = (prefix: string, columns: readonly string[]) =>
      Object.fromEntries(columns.map((c) => [c, row[`${prefix}${c}`]]));
    const token = toAccessToken(pick("t__", TOKEN_COLUMNS) as Selectable<OAuthAccessTokensTable>);
    if (row.u__id === null || row.u__id === undefined) return { token };
    const user = toUser(pick("u__", USER_COLUMNS) as Selectable<UsersTable>);
    const account = row.id === null ? undefined : toAccount(row as unknown as Selectable<AccountsTable>);
    return { token, user, account };
  }
}
