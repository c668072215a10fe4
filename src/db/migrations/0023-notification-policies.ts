import { type Kysely, sql } from "kysely";

/**
 * Notification filtering (Mastodon 4.3): a policy per account, the requests that hold what a
 * sender's filtered mentions, the senders let through for good, and `notifications.filtered`.
 * No policy row means the default, which here accepts everything (see docs/design.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const policy = (name: string) => (t: ReturnType<Kysely<unknown>["schema"]["createTable"]>) =>
    t.addColumn(name, "text", (c) => c.notNull().defaultTo("accept"));
  let t = db.schema
    .createTable("notification_policies")
    .addColumn("account_id", "bigint", (c) => c.primaryKey().references("accounts.id").onDelete("cascade"));
  for (const name of [
    "for_not_following",
    "for_not_followers",
    "for_new_accounts",
    "for_private_mentions",
    "for_limited_accounts",
  ]) {
    t = policy(name)(t);
  }
  await t
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("notification_requests")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("from_account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("last_status_id", "bigint")
    .addColumn("notifications_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // One request per recipient and sender; also the recipient's list, by id.
  await db.schema
    .createIndex("notification_requests_account_from")
    .on("notification_requests")
    .columns(["account_id", "from_account_id"])
    .unique()
    .execute();
  await db.schema
    .createIndex("notification_requests_account_id_id")
    .on("notification_requests")
    .columns(["account_id", "id"])
    .execute();

  await db.schema
    .createTable("notification_permissions")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("from_account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("notification_permissions_account_from")
    .on("notification_permissions")
    .columns(["account_id", "from_account_id"])
    .unique()
    .execute();

  await db.schema
    .alterTable("notifications")
    .addColumn("filtered", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  // A sender's filtered notifications (requests' counts, accept, dismiss); few rows, so partial.
  await sql`CREATE INDEX notifications_filtered_from ON notifications (account_id, from_account_id) WHERE filtered = TRUE`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("notifications_filtered_from").ifExists().execute();
  await db.schema.alterTable("notifications").dropColumn("filtered").execute();
  await db.schema.dropTable("notification_permissions").ifExists().execute();
  await db.schema.dropTable("notification_requests").ifExists().execute();
  await db.schema.dropTable("notification_policies").ifExists().execute();
}
