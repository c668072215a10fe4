import type { Kysely } from "kysely";

/**
 * Streaming renders each event once for all its subscribers, asking who (of anyone) mutes the
 * status's conversation and who blocks the author's domain: both lookups start from the other
 * end of these tables' indexes (by account), so each gets one by the column asked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("conversation_mutes_conversation")
    .on("conversation_mutes")
    .column("conversation_id")
    .execute();
  await db.schema.createIndex("account_domain_blocks_domain").on("account_domain_blocks").column("domain").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("account_domain_blocks_domain").execute();
  await db.schema.dropIndex("conversation_mutes_conversation").execute();
}
