import type { Kysely } from "kysely";

/**
 * The web side's sign-in security (issue 18): browser sessions one can list and revoke
 * (Mastodon's `session_activations`), the second factor of a user (a TOTP secret sealed with a
 * key derived from SECRET_KEY, the last time step used so a code works once), single-use
 * recovery codes (stored as keyed hashes), and WebAuthn security keys.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("web_sessions")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // SHA-256 of the session's nonce, which the signed cookie carries.
    .addColumn("session_hash", "text", (c) => c.notNull().unique())
    // Of the password hash when the session started: a password change ends the other sessions.
    .addColumn("password_fingerprint", "text", (c) => c.notNull())
    .addColumn("user_agent", "text", (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    // Last use, refreshed at most every few minutes.
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("web_sessions_user").on("web_sessions").columns(["user_id", "updated_at"]).execute();

  await db.schema
    .createTable("user_second_factors")
    .addColumn("user_id", "bigint", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    // Sealed base32 secrets: the one in use, and one being set up (shown as a QR code, not confirmed yet).
    .addColumn("otp_secret", "text")
    .addColumn("otp_pending_secret", "text")
    .addColumn("otp_enabled_at", "text")
    // The newest 30-second time step a code was accepted for (Mastodon's consumed_timestep).
    .addColumn("consumed_timestep", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("recovery_codes")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("recovery_codes_user_hash")
    .on("recovery_codes")
    .columns(["user_id", "code_hash"])
    .execute();

  await db.schema
    .createTable("webauthn_credentials")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // The credential id (base64url), as the authenticator gave it.
    .addColumn("external_id", "text", (c) => c.notNull().unique())
    // COSE public key, base64url.
    .addColumn("public_key", "text", (c) => c.notNull())
    .addColumn("nickname", "text", (c) => c.notNull())
    .addColumn("sign_count", "bigint", (c) => c.notNull().defaultTo(0))
    // JSON array of transports ("usb", "internal", ...), when the browser told them.
    .addColumn("transports", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema.createIndex("webauthn_credentials_user").on("webauthn_credentials").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("webauthn_credentials").execute();
  await db.schema.dropTable("recovery_codes").execute();
  await db.schema.dropTable("user_second_factors").execute();
  await db.schema.dropTable("web_sessions").execute();
}
