import { type Kysely, sql } from "kysely";

/** Accounts (local and remote), users, roles, OAuth, key-value store, site settings, rules. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("accounts")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("username", "text", (c) => c.notNull())
    .addColumn("domain", "text")
    .addColumn("display_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("note", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("note_source", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("fields", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("fields_source", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("actor_type", "text", (c) => c.notNull().defaultTo("Person"))
    .addColumn("locked", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("discoverable", "boolean")
    .addColumn("indexable", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("hide_collections", "boolean")
    .addColumn("memorial", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("uri", "text", (c) => c.notNull())
    .addColumn("url", "text")
    .addColumn("inbox_url", "text")
    .addColumn("outbox_url", "text")
    .addColumn("shared_inbox_url", "text")
    .addColumn("followers_url", "text")
    .addColumn("following_url", "text")
    .addColumn("featured_url", "text")
    .addColumn("featured_tags_url", "text")
    .addColumn("public_key_pem", "text")
    .addColumn("private_key_pem", "text")
    .addColumn("ed25519_public_key", "text")
    .addColumn("ed25519_private_key", "text")
    .addColumn("avatar_path", "text")
    .addColumn("avatar_remote_url", "text")
    .addColumn("avatar_content_type", "text")
    .addColumn("header_path", "text")
    .addColumn("header_remote_url", "text")
    .addColumn("header_content_type", "text")
    .addColumn("also_known_as", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("moved_to_account_id", "bigint")
    .addColumn("suspended_at", "text")
    .addColumn("suspension_origin", "text")
    .addColumn("silenced_at", "text")
    .addColumn("sensitized_at", "text")
    .addColumn("statuses_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("followers_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("following_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_status_at", "text")
    .addColumn("fetched_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX accounts_username_domain ON accounts (lower(username), coalesce(lower(domain), ''))`.execute(
    db,
  );
  await db.schema.createIndex("accounts_uri").on("accounts").column("uri").unique().execute();
  await db.schema.createIndex("accounts_domain").on("accounts").column("domain").execute();

  await db.schema
    .createTable("user_roles")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("color", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("permissions", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("highlighted", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX user_roles_name ON user_roles (lower(name))`.execute(db);

  await db.schema
    .createTable("users")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().unique().references("accounts.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("encrypted_password", "text", (c) => c.notNull())
    .addColumn("role_id", "bigint", (c) => c.notNull().references("user_roles.id"))
    .addColumn("locale", "text", (c) => c.notNull().defaultTo("en"))
    .addColumn("confirmed_at", "text")
    .addColumn("confirmation_token", "text")
    .addColumn("confirmation_sent_at", "text")
    .addColumn("unconfirmed_email", "text")
    .addColumn("approved", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("disabled", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("reason", "text")
    .addColumn("created_by_application_id", "bigint")
    .addColumn("sign_up_ip", "text")
    .addColumn("current_sign_in_at", "text")
    .addColumn("last_sign_in_at", "text")
    .addColumn("settings", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX users_email ON users (lower(email))`.execute(db);
  await db.schema.createIndex("users_confirmation_token").on("users").column("confirmation_token").execute();

  await db.schema
    .createTable("oauth_applications")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("website", "text")
    .addColumn("redirect_uris", "text", (c) => c.notNull())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("client_id", "text", (c) => c.notNull().unique())
    .addColumn("client_secret", "text", (c) => c.notNull())
    .addColumn("superapp", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("owner_account_id", "bigint", (c) => c.references("accounts.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("oauth_access_grants")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("application_id", "bigint", (c) => c.notNull().references("oauth_applications.id").onDelete("cascade"))
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull().unique())
    .addColumn("redirect_uri", "text", (c) => c.notNull())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("code_challenge", "text")
    .addColumn("code_challenge_method", "text")
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("oauth_access_tokens")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("application_id", "bigint", (c) => c.references("oauth_applications.id").onDelete("cascade"))
    .addColumn("user_id", "bigint", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .addColumn("last_used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("oauth_access_tokens_user").on("oauth_access_tokens").column("user_id").execute();

  await db.schema
    .createTable("kv_store")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expires_at", "text")
    .execute();

  await db.schema
    .createTable("site_settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("rules")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("hint", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // Mastodon's default roles: "everyone" (id -99) holds the base permissions of every user.
  const now = new Date().toISOString();
  const roles = [
    { id: "-99", name: "everyone", color: "", permissions: 0x10000, position: -1, highlighted: false },
    {
      id: "1",
      name: "Moderator",
      color: "",
      permissions: 0x4 | 0x8 | 0x10 | 0x200 | 0x400 | 0x800 | 0x10000,
      position: 10,
      highlighted: true,
    },
    { id: "2", name: "Admin", color: "", permissions: 0x1ffffe, position: 100, highlighted: true },
    { id: "3", name: "Owner", color: "", permissions: 0x1, position: 1000, highlighted: true },
  ];
  for (const r of roles) {
    await sql`INSERT INTO user_roles (id, name, color, permissions, position, highlighted, created_at, updated_at)
      VALUES (${r.id}, ${r.name}, ${r.color}, ${r.permissions}, ${r.position}, ${r.highlighted}, ${now}, ${now})`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    "rules",
    "site_settings",
    "kv_store",
    "oauth_access_tokens",
    "oauth_access_grants",
    "oauth_applications",
    "users",
    "user_roles",
    "accounts",
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
