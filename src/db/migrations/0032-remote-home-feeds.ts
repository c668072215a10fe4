import { type Kysely, sql } from "kysely";

/**
 * Only local accounts have home feeds. Before 3a9e146 the fan-out of a status from another server
 * also wrote it into a home feed of its remote author, which nobody reads: those rows go.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM feeds WHERE account_id IN (SELECT id FROM accounts WHERE domain IS NOT NULL)`.execute(db);
}

export async function down(): Promise<void> {
  // Nothing to restore: the rows were never read.
}
