import { type Kysely, sql } from "kysely";

/**
 * Mastodon's unavailable servers (its DeliveryFailureTracker and UnavailableDomain), kept on the
 * delivery health rows of 0054: on how many days deliveries to a server could not reach it since
 * it last answered (`failure_days`, the last such day in `last_failure_day`), and since when it is
 * marked unavailable (seven such days; nothing is sent to it until it answers again).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("delivery_health")
    .addColumn("failure_days", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("delivery_health").addColumn("last_failure_day", "text").execute();
  await db.schema.alterTable("delivery_health").addColumn("unavailable_since", "text").execute();
  await db.schema
    .createIndex("delivery_health_unavailable")
    .on("delivery_health")
    .column("unavailable_since")
    .where(sql.ref("unavailable_since"), "is not", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("delivery_health_unavailable").execute();
  await db.schema.alterTable("delivery_health").dropColumn("unavailable_since").execute();
  await db.schema.alterTable("delivery_health").dropColumn("last_failure_day").execute();
  await db.schema.alterTable("delivery_health").dropColumn("failure_days").execute();
}
