import type { Kysely } from "kysely";

/**
 * End-to-end encryption (Mastodon 3.3 to 4.2): one device per access token with its public
 * identity and fingerprint keys, the one-time keys it uploaded for others to claim (each handed
 * out once, then deleted), and the encrypted messages waiting for it. The server holds public keys
 * and ciphertext only. A device goes with its token or its account, and takes its keys and
 * messages with it (the foreign keys cascade, as Mastodon's do).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("devices")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("access_token_id", "bigint", (c) =>
      c.notNull().unique().references("oauth_access_tokens.id").onDelete("cascade"),
    )
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    // The client's own name for the device (Olm's device id), unique per account.
    .addColumn("device_id", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    // Base64 Ed25519 and Curve25519 public keys.
    .addColumn("fingerprint_key", "text", (c) => c.notNull())
    .addColumn("identity_key", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("devices_account_device")
    .on("devices")
    .columns(["account_id", "device_id"])
    .unique()
    .execute();

  await db.schema
    .createTable("one_time_keys")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    // The device row (devices.id), as Mastodon names it.
    .addColumn("device_id", "bigint", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("key_id", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("signature", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("one_time_keys_device_key")
    .on("one_time_keys")
    .columns(["device_id", "key_id"])
    .unique()
    .execute();

  await db.schema
    .createTable("encrypted_messages")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    // The recipient's device row.
    .addColumn("device_id", "bigint", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("from_account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("from_device_id", "text", (c) => c.notNull())
    // Olm's message type (0: pre-key message, 1: normal message).
    .addColumn("type", "integer", (c) => c.notNull())
    // Ciphertext, its HMAC and the server's franking token, as given: never decrypted here.
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("digest", "text", (c) => c.notNull())
    .addColumn("message_franking", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("encrypted_messages_device")
    .on("encrypted_messages")
    .columns(["device_id", "id"])
    .execute();
  await db.schema
    .createIndex("encrypted_messages_from_account")
    .on("encrypted_messages")
    .column("from_account_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("encrypted_messages").ifExists().execute();
  await db.schema.dropTable("one_time_keys").ifExists().execute();
  await db.schema.dropTable("devices").ifExists().execute();
}
