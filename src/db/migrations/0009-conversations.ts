import type { Kysely } from "kysely";

/**
 * Direct-message conversations as each participant sees them (Mastodon's AccountConversation):
 * one row per account, thread (`conversation_id`) and set of other participants, with the
 * statuses it holds in `account_conversation_statuses`, so deleting one moves `last_status_id`
 * back to the one before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("account_conversations")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull())
    .addColumn("conversation_id", "bigint", (c) => c.notNull())
    // The other participants' account ids, sorted numerically and joined with commas ("" when
    // the account wrote to itself only): part of the row's identity, as in Mastodon.
    .addColumn("participant_account_ids", "text", (c) => c.notNull())
    .addColumn("last_status_id", "bigint", (c) => c.notNull())
    .addColumn("unread", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("account_conversations_identity")
    .on("account_conversations")
    .columns(["account_id", "conversation_id", "participant_account_ids"])
    .unique()
    .execute();
  await db.schema
    .createIndex("account_conversations_account_last_status")
    .on("account_conversations")
    .columns(["account_id", "last_status_id"])
    .execute();

  await db.schema
    .createTable("account_conversation_statuses")
    .addColumn("account_conversation_id", "bigint", (c) => c.notNull())
    .addColumn("status_id", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("account_conversation_statuses_pkey", ["account_conversation_id", "status_id"])
    .execute();
  await db.schema
    .createIndex("account_conversation_statuses_status_id")
    .on("account_conversation_statuses")
    .column("status_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("account_conversation_statuses").ifExists().execute();
  await db.schema.dropTable("account_conversations").ifExists().execute();
}
