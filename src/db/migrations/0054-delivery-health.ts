import type { Kysely } from "kysely";

/**
 * Delivery health per remote server (issue 19, the moderation panel's federation pages): when a
 * delivery to the server last worked, when one last failed and why, and how many failed since the
 * last that worked. Written by the delivery jobs in batches (one upsert per server and flush,
 * services/federation/delivery-health.ts), read by `/admin/instances`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("delivery_health")
    .addColumn("domain", "text", (c) => c.primaryKey())
    .addColumn("last_success_at", "text")
    .addColumn("last_failure_at", "text")
    .addColumn("consecutive_failures", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failures_total", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("successes_total", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("delivery_health").execute();
}
