import type { Kysely, Selectable } from "kysely";
import type { DB, UserSecondFactorsTable, WebauthnCredentialsTable, WebSessionsTable } from "../schema.ts";

/** A signed-in browser session (Mastodon's session activation). */
export interface WebSessionRow {
  id: string;
  userId: string;
  userAgent: string;
  ip: string | null;
  createdAt: string;
  /** Last use (refreshed at most every few minutes). */
  updatedAt: string;
}

/** A user's TOTP state; secrets are sealed (services/security/secret-box.ts). */
export interface SecondFactorRow {
  userId: string;
  otpSecret: string | null;
  otpPendingSecret: string | null;
  otpEnabledAt: string | null;
  consumedTimestep: number | null;
}

export interface WebauthnCredentialRow {
  id: string;
  userId: string;
  externalId: string;
  publicKey: string;
  nickname: string;
  signCount: number;
  transports: string[] | undefined;
  createdAt: string;
  lastUsedAt: string | null;
}

const toSession = (r: Selectable<WebSessionsTable>): WebSessionRow => ({
  id: String(r.id),
  userId: String(r.user_id),
  userAgent: r.user_agent,
  ip: r.ip,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toSecondFactor = (r: Selectable<UserSecondFactorsTable>): SecondFactorRow => ({
  userId: String(r.user_id),
  otpSecret: r.otp_secret,
  otpPendingSecret: r.otp_pending_secret,
  otpEnabledAt: r.otp_enabled_at,
  consumedTimestep: r.consumed_timestep === null ? null : Number(r.consumed_timestep),
});

function parseTransports(s: string | null): string[] | undefined {
  if (!s) return undefined;
  try {
    const v = JSON.parse(s) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;
  } catch {
    return undefined;
  }
}

const toCredential = (r: Selectable<WebauthnCredentialsTable>): WebauthnCredentialRow => ({
  id: String(r.id),
  userId: String(r.user_id),
  externalId: r.external_id,
  publicKey: r.public_key,
  nickname: r.nickname,
  signCount: Number(r.sign_count),
  transports: parseTransports(r.transports),
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
});

/** All SQL on `web_sessions`, `user_second_factors`, `recovery_codes` and `webauthn_credentials` (migration 0047). */
export class SecurityRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  // --- browser sessions

  async insertSession(row: {
    id: string;
    userId: string;
    sessionHash: string;
    passwordFingerprint: string;
    userAgent: string;
    ip: string | null;
    at: string;
  }): Promise<void> {
    await this.#db
      .insertInto("web_sessions")
      .values({
        id: row.id,
        user_id: row.userId,
        session_hash: row.sessionHash,
        password_fingerprint: row.passwordFingerprint,
        user_agent: row.userAgent,
        ip: row.ip,
        created_at: row.at,
        updated_at: row.at,
      })
      .execute();
  }

  async sessionByHash(sessionHash: string): Promise<WebSessionRow | undefined> {
    const r = await this.#db
      .selectFrom("web_sessions")
      .selectAll()
      .where("session_hash", "=", sessionHash)
      .executeTakeFirst();
    return r && toSession(r);
  }

  async touchSession(id: string, ip: string | null, at: string): Promise<void> {
    await this.#db.updateTable("web_sessions").set({ updated_at: at, ip }).where("id", "=", id).execute();
  }

  /** The user's sessions, most recently used first. */
  async sessionsOf(userId: string): Promise<WebSessionRow[]> {
    const rows = await this.#db
      .selectFrom("web_sessions")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("updated_at", "desc")
      .orderBy("id", "desc")
      .execute();
    return rows.map(toSession);
  }

  async deleteSessionByHash(sessionHash: string): Promise<void> {
    await this.#db.deleteFrom("web_sessions").where("session_hash", "=", sessionHash).execute();
  }

  /** Deletes the user's sessions started with another password (they no longer work). */
  async deleteStaleSessions(userId: string, passwordFingerprint: string): Promise<void> {
    await this.#db
      .deleteFrom("web_sessions")
      .where("user_id", "=", userId)
      .where("password_fingerprint", "!=", passwordFingerprint)
      .execute();
  }

  /** Deletes one session of this user; answers whether there was one. */
  async deleteSession(userId: string, id: string): Promise<boolean> {
    const r = await this.#db
      .deleteFrom("web_sessions")
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Deletes the user's sessions except `keepId` (all of them when undefined). */
  async deleteSessionsOf(userId: string, keepId?: string): Promise<number> {
    let q = this.#db.deleteFrom("web_sessions").where("user_id", "=", userId);
    if (keepId !== undefined) q = q.where("id", "!=", keepId);
    const r = await q.executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /**
   * Deletes the user's sessions started before `createdBeforeIso` (their cookie has expired),
   * then keeps only the `keep` most recently used ones.
   */
  async pruneSessions(userId: string, keep: number, createdBeforeIso: string): Promise<void> {
    await this.#db
      .deleteFrom("web_sessions")
      .where("user_id", "=", userId)
      .where("created_at", "<", createdBeforeIso)
      .execute();
    const old = await this.#db
      .selectFrom("web_sessions")
      .select("id")
      .where("user_id", "=", userId)
      .orderBy("updated_at", "desc")
      .orderBy("id", "desc")
      .limit(1000)
      .offset(keep)
      .execute();
    if (old.length === 0) return;
    await this.#db
      .deleteFrom("web_sessions")
      .where(
        "id",
        "in",
        old.map((r) => r.id),
      )
      .execute();
  }

  // --- TOTP

  async secondFactorOf(userId: string): Promise<SecondFactorRow | undefined> {
    const r = await this.#db
      .selectFrom("user_second_factors")
      .selectAll()
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return r && toSecondFactor(r);
  }

  /** Sets fields of the user's row, creating it when missing. */
  async upsertSecondFactor(
    userId: string,
    patch: Partial<
      Pick<UserSecondFactorsTable, "otp_secret" | "otp_pending_secret" | "otp_enabled_at" | "consumed_timestep">
    >,
    at: string,
  ): Promise<void> {
    await this.#db
      .insertInto("user_second_factors")
      .values({
        user_id: userId,
        otp_secret: null,
        otp_pending_secret: null,
        otp_enabled_at: null,
        consumed_timestep: null,
        ...patch,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.column("user_id").doUpdateSet({ ...patch, updated_at: at }))
      .execute();
  }

  /**
   * Records `timestep` as used, if it is newer than the last one used: answers false when a code
   * of this time step (or a later one) was already accepted, so of two concurrent uses one wins.
   */
  async consumeTimestep(userId: string, timestep: number, at: string): Promise<boolean> {
    const r = await this.#db
      .updateTable("user_second_factors")
      .set({ consumed_timestep: timestep, updated_at: at })
      .where("user_id", "=", userId)
      .where("otp_secret", "is not", null)
      .where((eb) => eb.or([eb("consumed_timestep", "is", null), eb("consumed_timestep", "<", timestep)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  // --- recovery codes

  /** Replaces the user's recovery codes. */
  async replaceRecoveryCodes(userId: string, rows: { id: string; codeHash: string }[], at: string): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      await tx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
      if (rows.length > 0) {
        await tx
          .insertInto("recovery_codes")
          .values(rows.map((r) => ({ id: r.id, user_id: userId, code_hash: r.codeHash, created_at: at })))
          .execute();
      }
    });
  }

  /** Spends a recovery code: answers whether it existed (it is gone afterwards). */
  async useRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
    const r = await this.#db
      .deleteFrom("recovery_codes")
      .where("user_id", "=", userId)
      .where("code_hash", "=", codeHash)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async countRecoveryCodes(userId: string): Promise<number> {
    const r = await this.#db
      .selectFrom("recovery_codes")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async deleteRecoveryCodes(userId: string): Promise<void> {
    await this.#db.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
  }

  // --- WebAuthn

  async insertCredential(row: {
    id: string;
    userId: string;
    externalId: string;
    publicKey: string;
    nickname: string;
    signCount: number;
    transports: string[] | undefined;
    at: string;
  }): Promise<void> {
    await this.#db
      .insertInto("webauthn_credentials")
      .values({
        id: row.id,
        user_id: row.userId,
        external_id: row.externalId,
        public_key: row.publicKey,
        nickname: row.nickname,
        sign_count: row.signCount,
        transports: row.transports ? JSON.stringify(row.transports) : null,
        created_at: row.at,
        updated_at: row.at,
        last_used_at: null,
      })
      .execute();
  }

  async credentialsOf(userId: string): Promise<WebauthnCredentialRow[]> {
    const rows = await this.#db
      .selectFrom("webauthn_credentials")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute();
    return rows.map(toCredential);
  }

  async credentialByExternalId(externalId: string): Promise<WebauthnCredentialRow | undefined> {
    const r = await this.#db
      .selectFrom("webauthn_credentials")
      .selectAll()
      .where("external_id", "=", externalId)
      .executeTakeFirst();
    return r && toCredential(r);
  }

  async credentialUsed(id: string, signCount: number, at: string): Promise<void> {
    await this.#db
      .updateTable("webauthn_credentials")
      .set({ sign_count: signCount, last_used_at: at, updated_at: at })
      .where("id", "=", id)
      .execute();
  }

  async deleteCredential(userId: string, id: string): Promise<boolean> {
    const r = await this.#db
      .deleteFrom("webauthn_credentials")
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async countCredentials(userId: string): Promise<number> {
    const r = await this.#db
      .selectFrom("webauthn_credentials")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
