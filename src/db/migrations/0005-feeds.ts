import type { Kysely } from "kysely";

/** Home feeds, materialised on write: one row per (owner, status), filled by the fan-out job. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("feeds")
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("status_id", "bigint", (c) => c.notNull().references("statuses.id").onDelete("cascade"))
    .addColumn("reblog_of_id", "bigint")
    .addPrimaryKeyConstraint("feeds_pkey", ["account_id", "status_id"])
    .execute();
  await db.schema.createIndex("feeds_status_id").on("feeds").column("status_id").execute();
  await db.schema.createIndex("feeds_account_reblog").on("feeds").columns(["account_id", "reblog_of_id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("feeds").ifExists().execute();
}
