import type { Insertable, Kysely, Selectable } from "kysely";
import type { DB, OAuthAccessGrantsTable, OAuthAccessTokensTable, OAuthApplicationsTable } from "../schema.ts";

export interface Application {
  id: string;
  name: string;
  website: string | null;
  redirectUris: string[];
  scopes: string[];
  clientId: string;
  /** SHA-256 of the client secret. */
  clientSecretHash: string;
  superapp: boolean;
  ownerAccountId: string | null;
  /** The client secret, encrypted (apps made on the Development settings page only). */
  clientSecretBox: string | null;
  /** The owner's access token, encrypted (ditto). */
  ownerTokenBox: string | null;
  createdAt: string;
}

export interface AccessToken {
  id: string;
  applicationId: string | null;
  userId: string | null;
  scopes: string[];
  revokedAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface AccessGrant {
  id: string;
  applicationId: string;
  userId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  expiresAt: string;
  revokedAt: string | null;
}

const splitScopes = (s: string): string[] => s.split(/\s+/).filter(Boolean);

export function toApplication(r: Selectable<OAuthApplicationsTable>): Application {
  return {
    id: String(r.id),
    name: r.name,
    website: r.website,
    redirectUris: r.redirect_uris.split("\n").filter(Boolean),
    scopes: splitScopes(r.scopes),
    clientId: r.client_id,
    clientSecretHash: r.client_secret,
    superapp: Boolean(r.superapp),
    ownerAccountId: r.owner_account_id === null ? null : String(r.owner_account_id),
    clientSecretBox: r.client_secret_box ?? null,
    ownerTokenBox: r.owner_token_box ?? null,
    createdAt: r.created_at,
  };
}

export function toAccessToken(r: Selectable<OAuthAccessTokensTable>): AccessToken {
  return {
    id: String(r.id),
    applicationId: r.application_id === null ? null : String(r.application_id),
    userId: r.user_id === null ? null : String(r.user_id),
    scopes: splitScopes(r.scopes),
    revokedAt: r.revoked_at,
    lastUsedAt: r.last_used_at,
    createdAt: r.created_at,
  };
}

function toGrant(r: Selectable<OAuthAccessGrantsTable>): AccessGrant {
  return {
    id: String(r.id),
    applicationId: String(r.application_id),
    userId: String(r.user_id),
    redirectUri: r.redirect_uri,
    scopes: splitScopes(r.scopes),
    codeChallenge: r.code_challenge,
    codeChallengeMethod: r.code_challenge_method,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
  };
}

/** All SQL on OAuth applications, grants and tokens. */
export class OAuthRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async insertApplication(row: Insertable<OAuthApplicationsTable>): Promise<void> {
    await this.#db.insertInto("oauth_applications").values(row).execute();
  }

  async getApplicationById(id: string): Promise<Application | undefined> {
    const r = await this.#db.selectFrom("oauth_applications").selectAll().where("id", "=", id).executeTakeFirst();
    return r && toApplication(r);
  }

  async getApplicationByClientId(clientId: string): Promise<Application | undefined> {
    const r = await this.#db
      .selectFrom("oauth_applications")
      .selectAll()
      .where("client_id", "=", clientId)
      .executeTakeFirst();
    return r && toApplication(r);
  }

  async getApplicationByName(name: string): Promise<Application | undefined> {
    const r = await this.#db.selectFrom("oauth_applications").selectAll().where("name", "=", name).executeTakeFirst();
    return r && toApplication(r);
  }

  async insertGrant(row: OAuthAccessGrantsTable): Promise<void> {
    await this.#db.insertInto("oauth_access_grants").values(row).execute();
  }

  async getGrantByCodeHash(codeHash: string): Promise<AccessGrant | undefined> {
    const r = await this.#db
      .selectFrom("oauth_access_grants")
      .selectAll()
      .where("code_hash", "=", codeHash)
      .executeTakeFirst();
    return r && toGrant(r);
  }

  /** Marks a grant used; false when it was already used (codes are single-use). */
  async revokeGrant(id: string, at: string): Promise<boolean> {
    const r = await this.#db
      .updateTable("oauth_access_grants")
      .set({ revoked_at: at })
      .where("id", "=", id)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async insertToken(row: OAuthAccessTokensTable): Promise<void> {
    await this.#db.insertInto("oauth_access_tokens").values(row).execute();
  }

  /** Ids of the tokens issued for these browser sessions (the web client's, migration 0050). */
  async tokenIdsOfWebSessions(sessionIds: readonly string[]): Promise<string[]> {
    if (sessionIds.length === 0) return [];
    const rows = await this.#db
      .selectFrom("oauth_access_tokens")
      .select("id")
      .where("web_session_id", "in", sessionIds)
      .execute();
    return rows.map((r) => String(r.id));
  }

  async getTokenByHash(tokenHash: string): Promise<AccessToken | undefined> {
    const r = await this.#db
      .selectFrom("oauth_access_tokens")
      .selectAll()
      .where("token_hash", "=", tokenHash)
      .executeTakeFirst();
    return r && toAccessToken(r);
  }

  /** Live (unrevoked) tokens a user holds for one application; bounded, newest first. */
  async getActiveTokensOf(applicationId: string, userId: string, limit = 50): Promise<AccessToken[]> {
    const rows = await this.#db
      .selectFrom("oauth_access_tokens")
      .selectAll()
      .where("application_id", "=", applicationId)
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.map(toAccessToken);
  }

  async revokeToken(id: string, at: string): Promise<void> {
    await this.#db
      .updateTable("oauth_access_tokens")
      .set({ revoked_at: at })
      .where("id", "=", id)
      .where("revoked_at", "is", null)
      .execute();
  }

  async revokeTokensOfUser(userId: string, at: string): Promise<void> {
    await this.#db
      .updateTable("oauth_access_tokens")
      .set({ revoked_at: at })
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null)
      .execute();
  }

  // Applications a user owns (the Development settings page) and applications a user authorized.

  /** The applications an account owns, oldest first (bounded). */
  async applicationsOwnedBy(accountId: string, limit = 200): Promise<Application[]> {
    const rows = await this.#db
      .selectFrom("oauth_applications")
      .selectAll()
      .where("owner_account_id", "=", accountId)
      .orderBy("id", "asc")
      .limit(limit)
      .execute();
    return rows.map(toApplication);
  }

  async getApplicationsByIds(ids: readonly string[]): Promise<Application[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db.selectFrom("oauth_applications").selectAll().where("id", "in", ids).execute();
    return rows.map(toApplication);
  }

  async updateApplication(
    id: string,
    patch: Partial<Pick<OAuthApplicationsTable, "name" | "website" | "redirect_uris" | "scopes" | "updated_at">> & {
      client_secret_box?: string | null;
      owner_token_box?: string | null;
    },
  ): Promise<void> {
    await this.#db.updateTable("oauth_applications").set(patch).where("id", "=", id).execute();
  }

  /** Deletes an application; its grants and tokens go with it (foreign keys cascade). */
  async deleteApplication(id: string): Promise<void> {
    await this.#db.deleteFrom("oauth_access_tokens").where("application_id", "=", id).execute();
    await this.#db.deleteFrom("oauth_access_grants").where("application_id", "=", id).execute();
    await this.#db.deleteFrom("oauth_applications").where("id", "=", id).execute();
  }

  /** A user's live (unrevoked) tokens of any application, newest first (bounded). */
  async liveTokensOfUser(userId: string, limit = 1000): Promise<AccessToken[]> {
    const rows = await this.#db
      .selectFrom("oauth_access_tokens")
      .selectAll()
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null)
      .where("application_id", "is not", null)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.map(toAccessToken);
  }

  /** Ids of the live tokens of an application (of one user, when given); bounded. */
  async liveTokenIdsOfApplication(applicationId: string, userId?: string, limit = 10_000): Promise<string[]> {
    let q = this.#db
      .selectFrom("oauth_access_tokens")
      .select("id")
      .where("application_id", "=", applicationId)
      .where("revoked_at", "is", null);
    if (userId !== undefined) q = q.where("user_id", "=", userId);
    const rows = await q.limit(limit).execute();
    return rows.map((r) => String(r.id));
  }

  /** Revokes every live token and unused grant one user holds for one application. */
  async revokeUserAuthorization(applicationId: string, userId: string, at: string): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .updateTable("oauth_access_tokens")
        .set({ revoked_at: at })
        .where("application_id", "=", applicationId)
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .execute();
      await trx
        .updateTable("oauth_access_grants")
        .set({ revoked_at: at })
        .where("application_id", "=", applicationId)
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .execute();
    });
  }
}
