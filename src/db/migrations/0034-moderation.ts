import type { Kysely } from "kysely";

/**
 * Moderation (the admin API): the action log, account warnings and their presets, sign-up and
 * access blocks (e-mail domains, canonical e-mail hashes, IP ranges), the addresses users sign in
 * from, the relationships a domain block or a suspension severed (Mastodon 4.3), and the
 * moderators' switches on tags (usable, listable, trendable).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Who did what to which target, when. Never updated; `account_id` is null for the command line.
  await db.schema
    .createTable("admin_action_logs")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.references("accounts.id").onDelete("set null"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("target_type", "text", (c) => c.notNull())
    .addColumn("target_id", "text")
    // A readable name of the target (`alice@example.com`, a domain), kept after the target is gone.
    .addColumn("human_identifier", "text")
    .addColumn("summary", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("admin_action_logs_account")
    .on("admin_action_logs")
    .columns(["account_id", "id"])
    .execute();
  await db.schema
    .createIndex("admin_action_logs_target")
    .on("admin_action_logs")
    .columns(["target_type", "target_id", "id"])
    .execute();

  await db.schema
    .createTable("account_warning_presets")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("title", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // What a moderator did to an account, as the account's owner sees it (Mastodon's AccountWarning).
  await db.schema
    .createTable("account_warnings")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.references("accounts.id").onDelete("set null"))
    .addColumn("target_account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    // none | disable | mark_statuses_as_sensitive | delete_statuses | sensitive | silence | suspend
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull().defaultTo(""))
    // JSON array of status ids.
    .addColumn("status_ids", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("report_id", "bigint", (c) => c.references("reports.id").onDelete("set null"))
    .addColumn("overruled_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("account_warnings_target")
    .on("account_warnings")
    .columns(["target_account_id", "id"])
    .execute();

  await db.schema
    .createTable("email_domain_blocks")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("domain", "text", (c) => c.notNull().unique())
    .addColumn("allow_with_approval", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("canonical_email_blocks")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    // Hex SHA-256 of the canonical address.
    .addColumn("canonical_email_hash", "text", (c) => c.notNull().unique())
    .addColumn("reference_account_id", "bigint", (c) => c.references("accounts.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("ip_blocks")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    // A CIDR range in its canonical form (`192.0.2.0/24`, `2001:db8::/32`).
    .addColumn("ip", "text", (c) => c.notNull())
    // sign_up_requires_approval | sign_up_block | no_access
    .addColumn("severity", "text", (c) => c.notNull())
    .addColumn("comment", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("expires_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // The addresses a user signed up or signed in from, with when each was last used.
  await db.schema
    .createTable("user_ips")
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("ip", "text", (c) => c.notNull())
    .addColumn("used_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("user_ips_user_ip").on("user_ips").columns(["user_id", "ip"]).unique().execute();
  await db.schema.createIndex("user_ips_ip").on("user_ips").columns(["ip"]).execute();

  // One domain block or suspension that cut follows (Mastodon 4.3's RelationshipSeveranceEvent).
  await db.schema
    .createTable("relationship_severance_events")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    // domain_block | user_domain_block | account_suspension
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("target_name", "text", (c) => c.notNull())
    .addColumn("purged", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // Each follow an event cut: `active` when the local account followed, `passive` when it was followed.
  await db.schema
    .createTable("severed_relationships")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("relationship_severance_event_id", "bigint", (c) =>
      c.notNull().references("relationship_severance_events.id").onDelete("cascade"),
    )
    .addColumn("local_account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    // The remote side, by handle and URI: its account row is deleted with the domain's content.
    .addColumn("remote_acct", "text", (c) => c.notNull())
    .addColumn("remote_uri", "text", (c) => c.notNull())
    .addColumn("direction", "text", (c) => c.notNull())
    .addColumn("show_reblogs", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("notify", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("languages", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("severed_relationships_event_local")
    .on("severed_relationships")
    .columns(["relationship_severance_event_id", "local_account_id", "direction"])
    .execute();
  // What one local account lost in one event: the notification's `event` counts.
  await db.schema
    .createTable("account_relationship_severance_events")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("relationship_severance_event_id", "bigint", (c) =>
      c.notNull().references("relationship_severance_events.id").onDelete("cascade"),
    )
    .addColumn("followers_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("following_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("account_relationship_severance_events_account")
    .on("account_relationship_severance_events")
    .columns(["account_id", "relationship_severance_event_id"])
    .unique()
    .execute();

  // null: not reviewed yet (Mastodon's nil), which counts as allowed for usable and listable.
  await db.schema.alterTable("tags").addColumn("usable", "boolean").execute();
  await db.schema.alterTable("tags").addColumn("listable", "boolean").execute();
  await db.schema.alterTable("tags").addColumn("trendable", "boolean").execute();
  await db.schema.alterTable("tags").addColumn("reviewed_at", "text").execute();
  await db.schema.alterTable("tags").addColumn("requested_review_at", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ["requested_review_at", "reviewed_at", "trendable", "listable", "usable"]) {
    await db.schema.alterTable("tags").dropColumn(column).execute();
  }
  for (const table of [
    "account_relationship_severance_events",
    "severed_relationships",
    "relationship_severance_events",
    "user_ips",
    "ip_blocks",
    "canonical_email_blocks",
    "email_domain_blocks",
    "account_warnings",
    "account_warning_presets",
    "admin_action_logs",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
